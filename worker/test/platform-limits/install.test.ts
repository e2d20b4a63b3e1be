import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  SELF,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AnalyticsMessage } from "../../messages/analytics";
import worker from "../../index";
import { call, createVerifiedCustomer, db, testEnv } from "../helpers";
import { LIMITED, checkedCalls, takeRefusals } from "./limits";

/** The checked D1 statements and KV calls while `run` runs. */
async function checkedDuring(run: () => Promise<unknown>) {
  const before = { ...checkedCalls };
  await run();
  return { d1: checkedCalls.d1 - before.d1, kv: checkedCalls.kv - before.kv };
}

describe("the platform limits sit under every binding a test can reach", () => {
  it("wraps the shared env once, and testEnv() and db() use it", () => {
    expect(LIMITED in env.DB).toBe(true);
    expect(LIMITED in env.DELIVERY).toBe(true);
    expect(testEnv().DB).toBe(env.DB);
    expect(testEnv().DELIVERY).toBe(env.DELIVERY);
    expect(db().$client).toBe(env.DB);
  });

  it("is under the app, whether called through app.request or the Worker's own fetch (SELF)", async () => {
    // Adding a mapping reads and writes D1 and writes its delivery entry to KV.
    const mapping = (apiKey: string): RequestInit => ({
      method: "POST",
      headers: { "X-API-Key": apiKey, "Content-Type": "application/json" },
      body: JSON.stringify({ url: "https://shop.test/", htmlContent: "<p>hi</p>" }),
    });
    const a = await createVerifiedCustomer("a@example.com");
    const viaApp = await checkedDuring(() => call("/api/mappings", mapping(a.apiKey)));
    expect(viaApp.d1).toBeGreaterThan(0);
    expect(viaApp.kv).toBeGreaterThan(0);
    const b = await createVerifiedCustomer("b@example.com");
    const viaSelf = await checkedDuring(async () =>
      (await SELF.fetch("http://dc.test/api/mappings", mapping(b.apiKey))).text(),
    );
    expect(viaSelf.d1).toBeGreaterThan(0);
    expect(viaSelf.kv).toBeGreaterThan(0);
  });

  it("is under the queue consumer and the cron", async () => {
    const { user } = await createVerifiedCustomer("shop@example.com");
    const body: AnalyticsMessage = {
      id: crypto.randomUUID(),
      userId: user.id,
      url: "https://shop.test/",
      mappingId: null,
      delivered: false,
      timestamp: Date.now(),
      userAgent: null,
      referer: null,
    };
    const batch = createMessageBatch("dynamic-content-analytics", [
      { id: "m1", timestamp: new Date(), attempts: 1, body },
    ]);
    expect((await checkedDuring(() => worker.queue(batch, env))).d1).toBeGreaterThan(0);
    const ctx = createExecutionContext();
    const cron = await checkedDuring(async () => {
      await worker.scheduled(createScheduledController(), env, ctx);
      await waitOnExecutionContext(ctx);
    });
    expect(cron.d1).toBeGreaterThan(0);
  });

  it("records a refusal even when the code under test swallows the error", async () => {
    const tooMany = Array.from({ length: 101 }, (_, i) => i);
    await env.DB.prepare(`select 1 where 0 in (${tooMany.map(() => "?")})`)
      .bind(...tooMany)
      .all()
      .catch(() => undefined);
    expect(takeRefusals()).toHaveLength(1);
  });
});
