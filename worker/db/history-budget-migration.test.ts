import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { HISTORY_BYTES_LIMIT } from "#contract/versions";

const bytesOf = (html: string) => 64 + "https://shop.test/a".length + html.length;

/** The history written before the budget, then its migrations (0043 and 0044): what they make of it. */
describe("the history budget's migrations", () => {
  it("give every version its customer, size and standing, sum each customer's history, and prune from then on", async () => {
    await reset();
    const all = env.TEST_MIGRATIONS;
    const at = all.findIndex((m) => m.name.endsWith("_history_budget.sql"));
    expect(at).toBeGreaterThan(0);
    await applyD1Migrations(env.DB, all.slice(0, at));
    const big = "x".repeat(1_000_000);
    const update = (html: string) =>
      env.DB.prepare("UPDATE url_mappings SET html_content = ?1, changed_by = 'customer' WHERE id = 1").bind(html);
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('c', 'c@x.test', 0)"),
      env.DB.prepare(
        `INSERT INTO url_mappings (id, url, normalized_url, html_content, user_id, created_at, changed_by)
         VALUES (1, 'https://shop.test/a', 'shop.test/a', 'one', 'c', 0, 'customer')`,
      ),
      update("two"),
      update(big),
      env.DB.prepare(
        `INSERT INTO deleted_mappings (id, user_id, url, normalized_url, html_content, created_at, deleted_at)
         VALUES (7, 'c', 'https://shop.test/a', 'shop.test/a', 'gone', 0, 0)`,
      ),
    ]);
    await applyD1Migrations(env.DB, all.slice(at));

    const versions = await env.DB.prepare(
      "SELECT version, user_id, bytes, superseded FROM mapping_versions ORDER BY version",
    ).all();
    expect(versions.results).toEqual([
      { version: 1, user_id: "c", bytes: bytesOf("one"), superseded: 1 },
      { version: 2, user_id: "c", bytes: bytesOf("two"), superseded: 1 },
      { version: 3, user_id: "c", bytes: bytesOf(big), superseded: 0 },
    ]);
    const history = () =>
      env.DB.prepare("SELECT history_bytes AS n FROM mapping_totals WHERE user_id = 'c'").first("n");
    expect(await history()).toBe(bytesOf("one") + bytesOf("two") + bytesOf(big) + bytesOf("gone"));

    // From the next change on, the budget holds: ten more versions of 1 MB leave the three before them out.
    for (let i = 0; i < 10; i++) await update(`${i}${big}`).run();
    expect(await history()).toBeLessThanOrEqual(HISTORY_BYTES_LIMIT);
    const left = await env.DB.prepare(
      "SELECT min(version) AS first, max(version) AS last FROM mapping_versions",
    ).first();
    expect(left).toEqual({ first: 4, last: 13 });
  });
});
