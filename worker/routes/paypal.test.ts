import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { PAYMENT_GRACE_MS } from "../billing/entitlement";
import type { CustomerDashboard } from "#contract/responses";
import { runDaily } from "../scheduled";
import { billingPeriodResets, paypalTransactions, productVersions, subscriptions, users } from "../db/schema";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import {
  activeSubscription,
  ipnBody,
  monthlyPlan,
  paypalEnv,
  postIpn,
  usePayPalFake,
  type FakeSubscription,
} from "../test/paypal";

const paypal = usePayPalFake();

async function setup() {
  const customer = await createVerifiedCustomer("c@example.com");
  const [growth] = await db()
    .insert(productVersions)
    .values({ name: "Growth", paypalPlanId: "P-GROWTH", priceCents: 2900, eventsLimit: 100 })
    .returning();
  paypal.plans["P-GROWTH"] = monthlyPlan("29.00");
  return { ...customer, growth: growth! };
}

const store = (apiKey: string, subscriptionId: string, e = paypalEnv()) =>
  call(
    "/api/store-subscription",
    { method: "POST", apiKey, json: { subscriptionId, status: "ACTIVE", updatedAt: new Date().toISOString() } },
    e,
  );
const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const subscriptionRows = () => db().select().from(subscriptions).orderBy(subscriptions.id);

describe("POST /api/store-subscription", () => {
  it("grants the plan of an ACTIVE subscription whose plan, price and currency PayPal confirms", async () => {
    const { user, apiKey, growth } = await setup();
    paypal.subscriptions["I-1"] = activeSubscription(user.id, "P-GROWTH");
    const res = await store(apiKey, "I-1");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Subscribed to Growth" });
    expect(new Headers(paypal.tokenRequests[0]!.headers).get("Authorization")).toBe(`Basic ${btoa("client:secret")}`);
    const next = new Date(paypal.subscriptions["I-1"].billing_info!.next_billing_time!);
    expect(await subscriptionRows()).toMatchObject([
      {
        userId: user.id,
        subscriptionId: "I-1",
        planId: "P-GROWTH",
        productVersionId: growth.id,
        status: "active",
        paidThrough: next,
      },
    ]);
    const after = await userRow(user.id);
    expect(after).toMatchObject({
      productVersionId: growth.id,
      planSource: "paypal",
      planPaidThrough: next,
      billingPeriodEnd: next,
    });
    expect(after.billingPeriodStart!.getTime()).toBeGreaterThan(user.billingPeriodStart!.getTime());
  });

  it("stores an APPROVED (not yet paid) subscription as pending, with no plan, and says so", async () => {
    const { user, apiKey, growth } = await setup();
    paypal.subscriptions["I-1"] = { status: "APPROVED", plan_id: "P-GROWTH", custom_id: user.id };
    const res = await store(apiKey, "I-1");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: "Subscription stored. The Growth plan starts as soon as PayPal confirms the first payment.",
    });
    expect(await subscriptionRows()).toMatchObject([
      { status: "pending", productVersionId: growth.id, paidThrough: null },
    ]);
    expect((await userRow(user.id)).productVersionId).toBe(user.productVersionId);
  });

  it("is idempotent: the same subscription twice is stored once and starts one period", async () => {
    const { user, apiKey } = await setup();
    paypal.subscriptions["I-1"] = activeSubscription(user.id, "P-GROWTH");
    expect((await store(apiKey, "I-1")).status).toBe(200);
    const first = await userRow(user.id);
    expect((await store(apiKey, "I-1")).status).toBe(200);
    expect(await subscriptionRows()).toHaveLength(1);
    expect((await userRow(user.id)).billingPeriodStart).toEqual(first.billingPeriodStart);
  });

  it.each([
    ["PayPal does not know it", undefined],
    ["it is suspended", { status: "SUSPENDED" }],
    ["it still waits for the buyer's approval", { status: "APPROVAL_PENDING" }],
    ["it names another customer", { custom_id: "someone-else" }],
  ])("refuses when %s, and assigns nothing", async (_why, change?: Partial<FakeSubscription>) => {
    const { user, apiKey } = await setup();
    if (change) paypal.subscriptions["I-1"] = { ...activeSubscription(user.id, "P-GROWTH"), ...change };
    const res = await store(apiKey, "I-1");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "PayPal did not confirm this subscription" });
    expect(await subscriptionRows()).toHaveLength(0);
    expect((await userRow(user.id)).productVersionId).toBe(user.productVersionId);
  });

  it.each([
    ["a price override", { plan_overridden: true }, undefined],
    ["a quantity of 2", { quantity: "2" }, undefined],
    ["a plan priced lower at PayPal", {}, monthlyPlan("1.00")],
    ["a plan in another currency", {}, monthlyPlan("29.00", "EUR")],
    ["a plan billed yearly", {}, monthlyPlan("29.00", "USD", "YEAR")],
  ])("refuses %s, stores nothing and asks PayPal to cancel it", async (_why, change, plan) => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { user, apiKey } = await setup();
    if (plan) paypal.plans["P-GROWTH"] = plan;
    paypal.subscriptions["I-1"] = { ...activeSubscription(user.id, "P-GROWTH"), ...change };
    const res = await store(apiKey, "I-1");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error:
        "This subscription's price does not match the plan, so no plan was assigned and PayPal was asked to cancel it",
    });
    expect(paypal.cancels).toEqual(["I-1"]);
    expect(await subscriptionRows()).toHaveLength(0);
    expect((await userRow(user.id)).productVersionId).toBe(user.productVersionId);
  });

  it("refuses a plan id that no product version has", async () => {
    const { user, apiKey } = await setup();
    paypal.subscriptions["I-1"] = activeSubscription(user.id, "P-OTHER");
    const res = await store(apiKey, "I-1");
    expect(await res.json()).toEqual({ error: "No plan matches this subscription" });
    expect(await subscriptionRows()).toHaveLength(0);
  });

  it("refuses another customer's subscription id without asking PayPal", async () => {
    const { user, apiKey } = await setup();
    const other = await createVerifiedCustomer("o@example.com");
    await db().insert(subscriptions).values({ userId: other.user.id, subscriptionId: "I-1" });
    paypal.subscriptions["I-1"] = activeSubscription(user.id, "P-GROWTH");
    expect((await store(apiKey, "I-1")).status).toBe(409);
    expect(paypal.tokenRequests).toHaveLength(0);
  });

  it("answers 502 when PayPal cannot be reached, and stores nothing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { apiKey } = await setup();
    paypal.restDown = true;
    const res = await store(apiKey, "I-1");
    expect(res.status).toBe(502);
    expect(await subscriptionRows()).toHaveLength(0);
  });

  it("stores the same subscription when the dialog tries again after a 502: one subscription, one period, one answer", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { user, apiKey, growth } = await setup();
    paypal.subscriptions["I-1"] = activeSubscription(user.id, "P-GROWTH");
    paypal.restDown = true;
    expect((await store(apiKey, "I-1")).status).toBe(502);

    paypal.restDown = false;
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await store(apiKey, "I-1");
      answers.push([res.status, await res.json()]);
    }
    expect(answers).toEqual(Array(3).fill([200, { message: "Subscribed to Growth" }]));
    expect(await subscriptionRows()).toMatchObject([{ subscriptionId: "I-1", status: "active", replacedBy: null }]);
    expect(await db().$count(billingPeriodResets, eq(billingPeriodResets.userId, user.id))).toBe(1);
    expect((await userRow(user.id)).productVersionId).toBe(growth.id);
    expect(paypal.cancels).toEqual([]);
  });

  it("answers an APPROVED subscription stored again as the first time, and keeps it pending", async () => {
    const { user, apiKey } = await setup();
    paypal.subscriptions["I-1"] = { status: "APPROVED", plan_id: "P-GROWTH", custom_id: user.id };
    const first = await (await store(apiKey, "I-1")).json();
    expect(await (await store(apiKey, "I-1")).json()).toEqual(first);
    expect(await subscriptionRows()).toMatchObject([{ subscriptionId: "I-1", status: "pending" }]);
  });

  it("without REST credentials stores the subscription as pending and assigns no plan", async () => {
    const { user, apiKey } = await setup();
    const res = await store(apiKey, "I-9", testEnv());
    expect(await res.json()).toEqual({
      message: "Subscription stored. PayPal is not configured, so no plan was assigned.",
    });
    expect(await subscriptionRows()).toMatchObject([{ subscriptionId: "I-9", userId: user.id, status: "pending" }]);
    expect((await userRow(user.id)).productVersionId).toBe(user.productVersionId);
  });

  it("needs a key and a subscription id", async () => {
    expect((await store("", "I-1")).status).toBe(401);
    const { apiKey } = await setup();
    expect((await call("/api/store-subscription", { method: "POST", apiKey, json: {} })).status).toBe(400);
  });

  it("counts a payment PayPal notified before the subscription was stored, and shows it to the customer", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { user, apiKey, growth } = await setup();
    expect((await postIpn(ipnBody({ recurring_payment_id: "I-1" }))).status).toBe(200);
    expect((await db().select().from(paypalTransactions))[0]!.userId).toBeNull();
    paypal.subscriptions["I-1"] = { status: "APPROVED", plan_id: "P-GROWTH", custom_id: user.id };
    await store(apiKey, "I-1");
    expect((await db().select().from(paypalTransactions))[0]).toMatchObject({ userId: user.id });
    expect(await userRow(user.id)).toMatchObject({ productVersionId: growth.id, planSource: "paypal" });
  });
});

describe("changing plans", () => {
  async function subscribedToGrowth() {
    const base = await setup();
    const [pro] = await db()
      .insert(productVersions)
      .values({ name: "Pro", paypalPlanId: "P-PRO", priceCents: 9900 })
      .returning();
    paypal.plans["P-PRO"] = monthlyPlan("99.00");
    paypal.subscriptions["I-GROWTH"] = activeSubscription(base.user.id, "P-GROWTH");
    expect((await store(base.apiKey, "I-GROWTH")).status).toBe(200);
    paypal.subscriptions["I-PRO"] = activeSubscription(base.user.id, "P-PRO", "99.00");
    return { ...base, pro: pro! };
  }

  it("cancels the old subscription through PayPal's API, so only one is billed", async () => {
    const { user, apiKey, pro } = await subscribedToGrowth();
    const res = await store(apiKey, "I-PRO");
    expect(await res.json()).toEqual({ message: "Subscribed to Pro" });
    expect(paypal.cancels).toEqual(["I-GROWTH"]);
    expect(paypal.subscriptions["I-GROWTH"]!.status).toBe("CANCELLED");
    expect(await subscriptionRows()).toMatchObject([
      { subscriptionId: "I-GROWTH", status: "cancelled", replacedBy: "I-PRO" },
      { subscriptionId: "I-PRO", status: "active", replacedBy: null },
    ]);
    expect(await userRow(user.id)).toMatchObject({ productVersionId: pro.id, planSource: "paypal" });
  });

  it("keeps owing the cancel when PayPal fails it, and the daily job retries until PayPal takes it", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { user, apiKey, pro } = await subscribedToGrowth();
    paypal.cancelAnswer = 500;
    expect((await store(apiKey, "I-PRO")).status).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ productVersionId: pro.id });
    expect(await subscriptionRows()).toMatchObject([
      { subscriptionId: "I-GROWTH", status: "active", replacedBy: "I-PRO" },
      { subscriptionId: "I-PRO" },
    ]);
    expect(errors.mock.calls.flat().join(" ")).toContain("the daily job retries it");

    await runDaily(paypalEnv(), new Date());
    expect(paypal.cancels).toEqual(["I-GROWTH", "I-GROWTH"]);
    expect((await subscriptionRows())[0]!.status).toBe("active");
    paypal.cancelAnswer = 204;
    await runDaily(paypalEnv(), new Date());
    expect((await subscriptionRows())[0]!.status).toBe("cancelled");
    // The replaced subscription pays for nothing any more, even while its paid period runs.
    expect((await userRow(user.id)).productVersionId).toBe(pro.id);
  });
});

describe("the customer's own subscription", () => {
  const cancel = (apiKey: string, e = paypalEnv()) =>
    call("/api/user/subscription/cancel", { method: "POST", apiKey }, e);
  const dashboard = async (apiKey: string) =>
    (await (await call("/api/user/dashboard", { apiKey }, paypalEnv())).json()) as CustomerDashboard;

  async function subscribed() {
    const base = await setup();
    paypal.subscriptions["I-1"] = activeSubscription(base.user.id, "P-GROWTH");
    expect((await store(base.apiKey, "I-1")).status).toBe(200);
    return { ...base, paidThrough: new Date(paypal.subscriptions["I-1"].billing_info!.next_billing_time!) };
  }

  it("shows on the dashboard: none before, then its plan, status and paid-through day", async () => {
    const { user, apiKey, growth } = await setup();
    expect((await dashboard(apiKey)).subscription).toBeNull();
    paypal.subscriptions["I-1"] = activeSubscription(user.id, "P-GROWTH");
    expect((await store(apiKey, "I-1")).status).toBe(200);
    expect((await dashboard(apiKey)).subscription).toEqual({
      subscriptionId: "I-1",
      status: "active",
      productVersionId: growth.id,
      plan: "Growth",
      paidThrough: paypal.subscriptions["I-1"].billing_info!.next_billing_time,
    });
  });

  it("cancels at PayPal; the plan stays until the paid period ends, then the default plan", async () => {
    const { user, apiKey, growth, paidThrough } = await subscribed();
    const res = await cancel(apiKey);
    expect(res.status).toBe(200);
    const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(paidThrough);
    expect(await res.json()).toEqual({
      message: `Your subscription is cancelled: PayPal will not charge it again. Your Growth plan stays until ${day}, then your account moves to the Free plan.`,
    });
    expect(paypal.cancels).toEqual(["I-1"]);
    expect((await dashboard(apiKey)).subscription).toMatchObject({ status: "cancelled" });
    expect(await userRow(user.id)).toMatchObject({ productVersionId: growth.id, planSource: "paypal" });

    await runDaily(paypalEnv(), new Date(paidThrough.getTime() - 86_400_000));
    expect((await userRow(user.id)).productVersionId).toBe(growth.id);
    await runDaily(paypalEnv(), new Date(paidThrough.getTime() + PAYMENT_GRACE_MS + 60_000));
    const [free] = await db().select().from(productVersions).where(eq(productVersions.isDefault, true));
    expect(await userRow(user.id)).toMatchObject({ productVersionId: free!.id, planSource: "default" });

    // Nothing is left to cancel.
    const again = await cancel(apiKey);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: "You have no subscription to cancel" });
  });

  it("answers 404 to a customer who never subscribed, and asks PayPal nothing", async () => {
    const { apiKey } = await setup();
    const res = await cancel(apiKey);
    expect(res.status).toBe(404);
    expect(paypal.tokenRequests).toEqual([]);
  });

  it("answers 502 and keeps the subscription live when PayPal does not take the cancel", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { apiKey } = await subscribed();
    paypal.cancelAnswer = 500;
    const res = await cancel(apiKey);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      error: "PayPal did not confirm the cancellation. Please try again in a few minutes.",
    });
    expect((await dashboard(apiKey)).subscription).toMatchObject({ status: "active" });
  });

  it("answers 409 with what to do when PayPal's API is not configured here", async () => {
    const { apiKey } = await subscribed();
    const res = await cancel(apiKey, testEnv());
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: "Subscriptions cannot be cancelled here yet: cancel it in your PayPal account.",
    });
    expect(paypal.cancels).toEqual([]);
  });
});

describe("GET /api/paypal/config", () => {
  it("offers subscribe buttons (a client id) only with both REST credentials, and names the billing currency", async () => {
    expect(await (await call("/api/paypal/config", {}, paypalEnv())).json()).toEqual({
      clientId: "client",
      sdkUrl: "https://www.paypal.com/sdk/js",
      currency: "USD",
    });
    expect(await (await call("/api/paypal/config", {}, testEnv({ PAYPAL_CLIENT_ID: "client" }))).json()).toMatchObject({
      clientId: null,
    });
    expect(await (await call("/api/paypal/config", {}, paypalEnv({ BILLING_CURRENCY: "eur" }))).json()).toMatchObject({
      currency: "EUR",
    });
  });
});
