/**
 * @module Setup file of the worker tests: puts production's D1 and KV limits under every test. The wrappers are
 * installed once on the shared `env` of `cloudflare:workers`, the object every binding in a test comes from
 * (`env` itself, `testEnv()`, the helpers' `db()`, the migrations, and `SELF`/entrypoint calls), so no test
 * and no code path under test can reach the bare bindings. A refusal fails the test even when the code under
 * test caught the error (the queue consumer retries, `waitUntil` work is not awaited by the answer).
 */
import { env } from "cloudflare:workers";
import { afterEach } from "vitest";
import { limitD1 } from "./d1";
import { limitKv } from "./kv";
import { takeRefusals } from "./limits";

env.DB = limitD1(env.DB);
env.DELIVERY = limitKv(env.DELIVERY);

afterEach(() => {
  const refused = takeRefusals();
  if (refused.length > 0) {
    throw new Error(`Production's platform limits were exceeded:\n${refused.map((e) => e.message).join("\n")}`);
  }
});
