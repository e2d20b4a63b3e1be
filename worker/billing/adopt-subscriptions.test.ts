import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { paypalTransactions, productVersions, subscriptionLookups, subscriptions, users } from "../db/schema";
import { runDaily } from "../scheduled";
import { call, createVerifiedCustomer, db } from "../test/helpers";
import { activeSubscription, ipnBody, monthlyPlan, paypalEnv, postIpn, usePayPalFake } from "../test/paypal";
import { LOOKUPS_PER_RUN } from "./adopt-subscriptions";

const paypal = usePayPalFake();
const DAY = 86_400_000;

/** A customer, the Growth plan, and a completed payment PayPal notified for subscription I-SUB1, never stored. */
async function chargedButUnstored() {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  const customer = await createVerifiedCustomer("c@example.com");
  const [growth] = await db()
    .insert(productVersions)
    .values({ name: "Growth", paypalPlanId: "P-GROWTH", priceCents: 2900 })
    .returning();
  paypal.plans["P-GROWTH"] = monthlyPlan("29.00");
  expect((await postIpn(ipnBody({ recurring_payment_id: "I-SUB1", txn_id: "TXN-1" }))).status).toBe(200);
  return { ...customer, growth: growth! };
}

const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const subscriptionRows = () => db().select().from(subscriptions).orderBy(subscriptions.id);
const lookups = () => db().select().from(subscriptionLookups);
const payment = async (txn: string) =>
  (await db().select().from(paypalTransactions).where(eq(paypalTransactions.transactionId, txn)))[0]!;
const subscriptionAsks = () =>
  vi.mocked(globalThis.fetch).mock.calls.filter(([input]) => String(input).includes("/v1/billing/subscriptions/I-SUB1"))
    .length;

describe("daily job: subscriptions PayPal charges that we never stored", () => {
  it("stores an ACTIVE one for the customer its custom_id names: plan granted, payment counted and in their history", async () => {
    const { user, apiKey, growth } = await chargedButUnstored();
    paypal.subscriptions["I-SUB1"] = activeSubscription(user.id, "P-GROWTH");
    const history = () => call("/api/user/payment-history", { apiKey });
    expect((await history()).headers.get("X-Total-Count")).toBe("0");

    await runDaily(paypalEnv(), new Date());

    expect(await subscriptionRows()).toMatchObject([
      { userId: user.id, subscriptionId: "I-SUB1", productVersionId: growth.id, status: "active", replacedBy: null },
    ]);
    expect(await userRow(user.id)).toMatchObject({ productVersionId: growth.id, planSource: "paypal" });
    expect(await payment("TXN-1")).toMatchObject({ userId: user.id, periodEnd: expect.any(Date) });
    const res = await history();
    expect(res.headers.get("X-Total-Count")).toBe("1");
    expect(await res.json()).toMatchObject([{ transactionId: "TXN-1" }]);
    expect(await lookups()).toEqual([]);
  });

  it("keeps the customer's stored subscription: the unstored one is stored replaced by it, shown, and cancelled at PayPal", async () => {
    const { user, growth } = await chargedButUnstored();
    paypal.subscriptions["I-SUB1"] = activeSubscription(user.id, "P-GROWTH");
    // "Please try again" used to mean a second approval: that one was stored.
    paypal.subscriptions["I-SECOND"] = activeSubscription(user.id, "P-GROWTH");
    const paidThrough = new Date(Date.now() + 30 * DAY);
    await db().insert(subscriptions).values({
      userId: user.id,
      subscriptionId: "I-SECOND",
      planId: "P-GROWTH",
      productVersionId: growth.id,
      status: "active",
      paidThrough,
    });

    await runDaily(paypalEnv(), new Date());

    expect(paypal.cancels).toEqual(["I-SUB1"]);
    expect(await subscriptionRows()).toMatchObject([
      { subscriptionId: "I-SECOND", status: "active", replacedBy: null, paidThrough },
      { subscriptionId: "I-SUB1", status: "cancelled", replacedBy: "I-SECOND" },
    ]);
    expect((await payment("TXN-1")).userId).toBe(user.id);
  });

  it.each([
    ["its custom_id names no customer", () => activeSubscription("nobody", "P-GROWTH"), "29.00"],
    ["it is not ACTIVE", (id: string) => ({ ...activeSubscription(id, "P-GROWTH"), status: "SUSPENDED" }), "29.00"],
    ["its plan is none of ours", (id: string) => activeSubscription(id, "P-OTHER"), "29.00"],
    ["PayPal charges another price", (id: string) => activeSubscription(id, "P-GROWTH", "1.00"), "1.00"],
    ["PayPal does not know it", undefined, "29.00"],
  ])("leaves it for the admin when %s, and asks again only after its next payment", async (_why, remote, price) => {
    const { user } = await chargedButUnstored();
    paypal.plans["P-GROWTH"] = monthlyPlan(price);
    if (remote) paypal.subscriptions["I-SUB1"] = remote(user.id);
    const now = new Date();

    await runDaily(paypalEnv(), now);
    expect(await subscriptionRows()).toEqual([]);
    expect(await userRow(user.id)).toMatchObject({ planSource: "default" });
    expect(await lookups()).toMatchObject([{ subscriptionId: "I-SUB1", checkedAt: now }]);
    expect(subscriptionAsks()).toBe(1);

    await runDaily(paypalEnv(), new Date(now.getTime() + DAY));
    expect(subscriptionAsks()).toBe(1);

    await db()
      .update(paypalTransactions)
      .set({ createdAt: new Date(now.getTime() + 2 * DAY) })
      .where(eq(paypalTransactions.transactionId, "TXN-1"));
    await runDaily(paypalEnv(), new Date(now.getTime() + 3 * DAY));
    expect(subscriptionAsks()).toBe(2);
  });

  it("asks again the next day when PayPal cannot be reached", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { user, growth } = await chargedButUnstored();
    paypal.subscriptions["I-SUB1"] = activeSubscription(user.id, "P-GROWTH");
    paypal.restDown = true;
    await runDaily(paypalEnv(), new Date());
    expect(await subscriptionRows()).toEqual([]);
    expect(await lookups()).toEqual([]);

    paypal.restDown = false;
    await runDaily(paypalEnv(), new Date(Date.now() + DAY));
    expect(await subscriptionRows()).toMatchObject([{ subscriptionId: "I-SUB1", productVersionId: growth.id }]);
  });

  it(`asks about at most ${LOOKUPS_PER_RUN} a run, only about payments of the last 35 days, and forgets older lookups`, async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const arrived = Date.now();
    const payments = Array.from({ length: LOOKUPS_PER_RUN + 2 }, (_, i) => ({
      transactionId: `T-${i}`,
      recurringPaymentId: `I-${i}`,
      paymentStatus: "Completed",
      amount: "29.00",
      currency: "USD",
      receivedAt: new Date(arrived - (i === 0 ? 36 : 1) * DAY),
    }));
    // D1 binds at most 100 parameters a statement.
    for (let i = 0; i < payments.length; i += 10) {
      await db()
        .insert(paypalTransactions)
        .values(payments.slice(i, i + 10));
    }
    const now = new Date(Date.now() + 1000);
    await db()
      .insert(subscriptionLookups)
      .values({
        subscriptionId: "I-LONG-AGO",
        checkedAt: new Date(arrived - 36 * DAY),
        outcome: "PayPal does not know it",
      });
    await runDaily(paypalEnv(), now);
    const asked = (await lookups()).map((l) => l.subscriptionId);
    expect(asked).toHaveLength(LOOKUPS_PER_RUN);
    expect(asked).not.toContain("I-0");
    expect(asked).not.toContain("I-LONG-AGO");
    await runDaily(paypalEnv(), new Date(now.getTime() + DAY));
    expect(await lookups()).toHaveLength(LOOKUPS_PER_RUN + 1);
  });
});
