import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/** The data of the migration before billing entitlements existed, then that migration: what it makes of it. */
describe("the billing entitlements migration", () => {
  it("keeps a plan held through an active subscription paid until its period ends, and marks other plans the admin's", async () => {
    await reset();
    const all = env.TEST_MIGRATIONS;
    const at = all.findIndex((m) => m.name.endsWith("_billing_entitlements.sql"));
    expect(at).toBeGreaterThan(0);
    await applyD1Migrations(env.DB, all.slice(0, at));
    const end = Date.parse("2026-12-05T12:00:00Z");
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO product_versions (id, name, paypal_plan_id, price_cents) VALUES (10, 'Growth', 'P-GROWTH', 2900), (11, 'Gift', NULL, NULL)",
      ),
      env.DB.prepare(
        `INSERT INTO users (id, email, product_version_id, billing_period_start, billing_period_end) VALUES
          ('payer', 'p@x.test', 10, ?1, ?2), ('gifted', 'g@x.test', 11, ?1, ?2), ('free', 'f@x.test', 1, ?1, ?2)`,
      ).bind(end - 30 * 86_400_000, end),
      env.DB.prepare(
        "INSERT INTO subscriptions (user_id, subscription_id, plan_id, status) VALUES ('payer', 'I-1', 'P-GROWTH', 'active')",
      ),
      env.DB.prepare(
        `INSERT INTO paypal_transactions (transaction_id, user_id, recurring_payment_id, payment_status, received_at,
          next_payment_date, raw_payload) VALUES ('T1', 'payer', 'I-1', 'Completed', ?1, '2026-12-05T12:00:00.000Z', '{}'),
          ('R1', NULL, NULL, 'Refunded', ?1, NULL, '{"parent_txn_id":"T1"}')`,
      ).bind(end - 30 * 86_400_000),
    ]);
    await applyD1Migrations(env.DB, all.slice(at));

    const users = await env.DB.prepare(
      "SELECT id, plan_source, plan_paid_through FROM users WHERE id IN ('payer', 'gifted', 'free') ORDER BY id",
    ).all();
    expect(users.results).toEqual([
      { id: "free", plan_source: "default", plan_paid_through: null },
      { id: "gifted", plan_source: "admin", plan_paid_through: null },
      { id: "payer", plan_source: "paypal", plan_paid_through: end },
    ]);
    const subscription = await env.DB.prepare("SELECT product_version_id, paid_through FROM subscriptions").first();
    expect(subscription).toEqual({ product_version_id: 10, paid_through: end });
    const payments = await env.DB.prepare(
      "SELECT transaction_id, parent_transaction_id, period_end FROM paypal_transactions ORDER BY id",
    ).all();
    expect(payments.results).toEqual([
      { transaction_id: "T1", parent_transaction_id: null, period_end: end },
      { transaction_id: "R1", parent_transaction_id: "T1", period_end: null },
    ]);
  });
});

/** Issue 39: payments stored before they were linked by payer email, and the subscriptions no account stores. */
describe("the unclaimed subscriptions migration", () => {
  it("links a payment no stored subscription holds to its payer's account, and lists each unstored paid subscription once", async () => {
    await reset();
    const all = env.TEST_MIGRATIONS;
    const at = all.findIndex((m) => m.name.endsWith("_unclaimed_subscriptions.sql"));
    expect(at).toBeGreaterThan(0);
    await applyD1Migrations(env.DB, all.slice(0, at));
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, email) VALUES ('jane', 'jane@x.test'), ('bob', 'bob@x.test')"),
      env.DB.prepare("INSERT INTO subscriptions (user_id, subscription_id, status) VALUES ('bob', 'I-BOB', 'active')"),
      env.DB.prepare(
        `INSERT INTO paypal_transactions (transaction_id, user_id, payer_email, recurring_payment_id, payment_status,
          parent_transaction_id, received_at) VALUES
          ('T-OLD', NULL, 'jane@x.test', 'I-LOST', 'Completed', NULL, 1000),
          ('T-NEW', NULL, 'jane@x.test', 'I-LOST', 'Completed', NULL, 2000),
          ('T-REFUND', NULL, 'jane@x.test', 'I-LOST', 'Refunded', 'T-NEW', 3000),
          ('T-BOB', 'bob', 'jane@x.test', 'I-BOB', 'Completed', NULL, 1000),
          ('T-BOB-LATE', NULL, 'jane@x.test', 'I-BOB', 'Completed', NULL, 1500),
          ('T-STRANGER', NULL, 'who@x.test', 'I-STRANGER', 'completed', NULL, 1000),
          ('T-PENDING', NULL, 'who@x.test', 'I-PENDING', 'Pending', NULL, 1000)`,
      ),
    ]);
    await applyD1Migrations(env.DB, all.slice(at));

    const links = await env.DB.prepare("SELECT transaction_id, user_id FROM paypal_transactions ORDER BY id").all();
    expect(links.results).toEqual([
      { transaction_id: "T-OLD", user_id: "jane" },
      { transaction_id: "T-NEW", user_id: "jane" },
      { transaction_id: "T-REFUND", user_id: "jane" },
      { transaction_id: "T-BOB", user_id: "bob" },
      // A stored subscription's payment is never moved by its payer's email.
      { transaction_id: "T-BOB-LATE", user_id: null },
      { transaction_id: "T-STRANGER", user_id: null },
      { transaction_id: "T-PENDING", user_id: null },
    ]);
    const unclaimed = await env.DB.prepare(
      "SELECT subscription_id, last_transaction_id, last_payment_at, cancelled_at FROM unclaimed_subscriptions ORDER BY 1",
    ).all();
    expect(unclaimed.results).toEqual([
      { subscription_id: "I-LOST", last_transaction_id: "T-NEW", last_payment_at: 2000, cancelled_at: null },
      { subscription_id: "I-STRANGER", last_transaction_id: "T-STRANGER", last_payment_at: 1000, cancelled_at: null },
    ]);
  });
});
