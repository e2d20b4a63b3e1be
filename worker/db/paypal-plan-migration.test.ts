import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/** Versions saved before plan ids were unique, then the migration that makes them so. */
describe("the unique PayPal plan id's migration", () => {
  it("leaves a shared plan id with the oldest version, clears empty ones, and refuses a duplicate from then on", async () => {
    await reset();
    const all = env.TEST_MIGRATIONS;
    const at = all.findIndex((m) => m.name.endsWith("_paypal_plan_unique_and_lookups.sql"));
    expect(at).toBeGreaterThan(0);
    await applyD1Migrations(env.DB, all.slice(0, at));
    await env.DB.prepare(
      `INSERT INTO product_versions (id, name, paypal_plan_id, is_default, created_at) VALUES
       (10, 'Growth', 'P-GROWTH', 0, 0), (11, 'Growth copy', 'P-GROWTH', 0, 0), (12, 'Pro', 'P-PRO', 0, 0),
       (13, 'Blank', '', 0, 0), (14, 'Blank too', ' ', 0, 0)`,
    ).run();
    await applyD1Migrations(env.DB, all.slice(at));

    const rows = await env.DB.prepare(
      "SELECT id, paypal_plan_id AS plan FROM product_versions WHERE id >= 10 ORDER BY id",
    ).all();
    expect(rows.results).toEqual([
      { id: 10, plan: "P-GROWTH" },
      { id: 11, plan: null },
      { id: 12, plan: "P-PRO" },
      { id: 13, plan: null },
      { id: 14, plan: null },
    ]);
    await expect(
      env.DB.prepare("UPDATE product_versions SET paypal_plan_id = 'P-PRO' WHERE id = 10").run(),
    ).rejects.toThrow(/UNIQUE constraint failed: product_versions\.paypal_plan_id/);
  });
});
