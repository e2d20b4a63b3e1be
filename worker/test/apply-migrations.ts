import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach } from "vitest";
import { readTemplate, replayMigrations } from "./database-template";

/** This test file's template (database-template.ts), made by its first test's replay of the migrations. */
let template: D1PreparedStatement[] | undefined;

// Every test starts from an empty, migrated database and empty KV: the first of a file by replaying the migrations,
// the others from the template that replay left.
beforeEach(async () => {
  await reset();
  if (template) {
    await env.DB.batch(template);
  } else {
    await replayMigrations();
    template = await readTemplate();
  }
});
