import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { describeDatabase, readTemplate, replayMigrations } from "./database-template";

describe("the test database's template", () => {
  it("makes the database the migrations make: the same schema in the same order, rows and counters", async () => {
    await reset();
    await replayMigrations();
    const replayed = await describeDatabase();
    const template = await readTemplate();
    await reset();
    await env.DB.batch(template);

    expect(await describeDatabase()).toEqual(replayed);
    // Each FTS5 index agrees with its table (an error otherwise).
    const searches = replayed.master.filter((o) => o.sql.startsWith("CREATE VIRTUAL TABLE")).map((o) => o.name);
    await env.DB.batch(searches.map((s) => env.DB.prepare(`INSERT INTO "${s}" ("${s}") VALUES ('integrity-check')`)));
    // What the comparison covers: every migration recorded, the default plan 0001 seeds, the FTS5 tables.
    expect(replayed.rows.flat().filter((r) => "applied_at" in (r as object))).toHaveLength(env.TEST_MIGRATIONS.length);
    expect(replayed.master.map((o) => o.name)).toContain("url_mappings_search");
    expect(replayed.rows.at(-1)).toContainEqual({ name: "product_versions", seq: 1 });
  });
});
