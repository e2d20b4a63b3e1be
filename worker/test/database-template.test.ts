import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { describeDatabase, readTemplate, replayMigrations } from "./database-template";
import { createFixture, stubPayPalPostBack } from "./route-matrix";

beforeEach(stubPayPalPostBack);
afterEach(() => vi.restoreAllMocks());

/** The database as `describeDatabase` tells it, after its template made it again in an empty one. */
async function copied() {
  const template = await readTemplate();
  await reset();
  await env.DB.batch(template);
  const searches = (await describeDatabase()).master.filter((o) => o.sql.startsWith("CREATE VIRTUAL TABLE"));
  // Each FTS5 index agrees with its table (an error otherwise).
  await env.DB.batch(
    searches.map((s) => env.DB.prepare(`INSERT INTO "${s.name}" ("${s.name}") VALUES ('integrity-check')`)),
  );
  return describeDatabase();
}

describe("the test database's template", () => {
  it("makes the database the migrations make: the same schema, rows and counters", async () => {
    await reset();
    await replayMigrations();
    const replayed = await describeDatabase();

    expect(await copied()).toEqual(replayed);
    // What the comparison covers: every migration recorded, the default plan 0001 seeds, the FTS5 tables.
    expect(replayed.rows.flat().filter((r) => "applied_at" in (r as object))).toHaveLength(env.TEST_MIGRATIONS.length);
    expect(replayed.master.map((o) => o.name)).toContain("url_mappings_search");
    expect(replayed.rows.at(-1)).toContainEqual({ name: "product_versions", seq: 1 });
  });

  it("copies a database with rows: the rows the triggers wrote once, and searches that find them", async () => {
    await createFixture();
    const made = await describeDatabase();

    expect(await copied()).toEqual(made);
    const found = await env.DB.prepare(
      "SELECT count(*) AS n FROM url_mappings_search WHERE url_mappings_search MATCH '\"a.test\"'",
    ).first<{ n: number }>();
    expect(found?.n).toBeGreaterThan(0);
  });
});
