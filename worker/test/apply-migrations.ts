import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach } from "vitest";
import { changeFeed } from "../delivery/change-feed";
import { readTemplate, replayMigrations } from "./database-template";

/**
 * The template (database-template.ts) the first test's replay of the migrations made; kept on `globalThis`, which
 * outlives this module in a runtime that runs file after file (vitest.config.ts `isolate: false`).
 */
const runtime = globalThis as { testDatabaseTemplate?: D1PreparedStatement[] };

// Every test starts from an empty, migrated database and empty KV: the first of a file by replaying the migrations,
// the others from the template that replay left.
beforeEach(async () => {
  await emptyStorage();
  // The isolate's follower of the delivery change feed outlives the database it followed.
  changeFeed.restart();
  if (runtime.testDatabaseTemplate) {
    await env.DB.batch(runtime.testDatabaseTemplate);
  } else {
    await replayMigrations();
    runtime.testDatabaseTemplate = await readTemplate();
  }
});

/**
 * Deletes every Durable Object's storage, D1's included. Files share a runtime (vitest.config.ts `isolate: false`): at
 * the start of a file the last file's background work may still hold D1's object, and a reset then leaves the
 * database as it was; it is repeated until the database is empty.
 */
async function emptyStorage() {
  for (let attempt = 0; attempt < 20; attempt++) {
    await reset();
    if ((await env.DB.prepare("SELECT count(*) AS n FROM sqlite_master").first<number>("n")) === 0) return;
    await scheduler.wait(50);
  }
  throw new Error("The test database could not be emptied");
}
