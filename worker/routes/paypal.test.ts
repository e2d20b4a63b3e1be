import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { productVersions, subscriptions, users } from "../db/schema";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";

const API = "https://paypal.fake";
const paypalEnv = () => testEnv({ PAYPAL_CLIENT_ID: "client", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_API_BASE: API });

/** PayPal's REST API, faked: a token, and the subscriptions it knows. */
let known: Record<string, { status: string; plan_id: string; custom_id: string }> = {};
let tokenRequests: RequestInit[] = [];
beforeEach(() => {
  known = {};
  tokenRequests = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === `${API}/v1/oauth2/token`) {
      tokenRequests.push(init!);
      return Response.json({ access_token: "token-1" });
    }
    const m = url.match(new RegExp(`^${API}/v1/billing/subscriptions/(.+)$`));
    if (m) {
      expect(new Headers(init!.headers).get("Authorization")).toBe("Bearer token-1");
      const sub = known[decodeURIComponent(m[1]!)];
      return sub ? Response.json({ id: m[1], ...sub }) : new Response("not found", { status: 404 });
    }
    return realFetch(input, init);
  });
});
afterEach(() => vi.restoreAllMocks());

async function setup() {
  const customer = await createVerifiedCustomer("c@example.com");
  const [growth] = await db()
    .insert(productVersions)
    .values({ name: "Growth", paypalPlanId: "P-GROWTH", eventsLimit: 100 })
    .returning();
  return { ...customer, growth: growth! };
}

const store = (apiKey: string, subscriptionId: string, e = paypalEnv()) =>
  call(
    "/api/store-subscription",
    { method: "POST", apiKey, json: { subscriptionId, status: "ACTIVE", updatedAt: new Date().toISOString() } },
    e,
  );

describe("POST /api/store-subscription", () => {
  it("confirms the subscription with PayPal, then stores it and assigns the matching plan", async () => {
    const { user, apiKey, growth } = await setup();
    known["I-1"] = { status: "ACTIVE", plan_id: "P-GROWTH", custom_id: user.id };
    const res = await store(apiKey, "I-1");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Subscribed to Growth" });
    expect(new Headers(tokenRequests[0]!.headers).get("Authorization")).toBe(`Basic ${btoa("client:secret")}`);
    expect(await db().select().from(subscriptions)).toMatchObject([
      { userId: user.id, subscriptionId: "I-1", planId: "P-GROWTH", status: "active" },
    ]);
    const after = (await db().select().from(users).where(eq(users.id, user.id)))[0]!;
    expect(after.productVersionId).toBe(growth.id);
    expect(after.billingPeriodStart!.getTime()).toBeGreaterThan(user.billingPeriodStart!.getTime());
  });

  it("is idempotent: the same subscription twice is stored once", async () => {
    const { user, apiKey } = await setup();
    known["I-1"] = { status: "APPROVED", plan_id: "P-GROWTH", custom_id: user.id };
    expect((await store(apiKey, "I-1")).status).toBe(200);
    expect((await store(apiKey, "I-1")).status).toBe(200);
    expect(await db().select().from(subscriptions)).toHaveLength(1);
  });

  it.each([
    ["PayPal does not know it", undefined],
    ["it is suspended", { status: "SUSPENDED", plan_id: "P-GROWTH", custom_id: "" }],
    ["it names another customer", { status: "ACTIVE", plan_id: "P-GROWTH", custom_id: "someone-else" }],
  ])("refuses when %s, and assigns nothing", async (_why, sub) => {
    const { user, apiKey } = await setup();
    if (sub) known["I-1"] = { ...sub, custom_id: sub.custom_id || user.id };
    const res = await store(apiKey, "I-1");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "PayPal did not confirm this subscription" });
    expect(await db().select().from(subscriptions)).toHaveLength(0);
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.productVersionId).toBe(
      user.productVersionId,
    );
  });

  it("refuses a plan id that no product version has", async () => {
    const { user, apiKey } = await setup();
    known["I-1"] = { status: "ACTIVE", plan_id: "P-OTHER", custom_id: user.id };
    const res = await store(apiKey, "I-1");
    expect(await res.json()).toEqual({ error: "No plan matches this subscription" });
    expect(await db().select().from(subscriptions)).toHaveLength(0);
  });

  it("refuses another customer's subscription id", async () => {
    const { user, apiKey } = await setup();
    const other = await createVerifiedCustomer("o@example.com");
    await db().insert(subscriptions).values({ userId: other.user.id, subscriptionId: "I-1" });
    known["I-1"] = { status: "ACTIVE", plan_id: "P-GROWTH", custom_id: user.id };
    expect((await store(apiKey, "I-1")).status).toBe(409);
  });

  it("without PayPal credentials stores the subscription and assigns no plan", async () => {
    const { user, apiKey } = await setup();
    const res = await store(apiKey, "I-9", testEnv());
    expect(await res.json()).toEqual({
      message: "Subscription stored. PayPal is not configured, so no plan was assigned.",
    });
    expect(await db().select().from(subscriptions)).toMatchObject([{ subscriptionId: "I-9", userId: user.id }]);
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.productVersionId).toBe(
      user.productVersionId,
    );
  });

  it("needs a key and a subscription id", async () => {
    expect((await store("", "I-1")).status).toBe(401);
    const { apiKey } = await setup();
    expect((await call("/api/store-subscription", { method: "POST", apiKey, json: {} })).status).toBe(400);
  });
});

describe("GET /api/paypal/config", () => {
  it("tells the SPA the client id and SDK address", async () => {
    expect(await (await call("/api/paypal/config", {}, paypalEnv())).json()).toEqual({
      clientId: "client",
      sdkUrl: "https://www.paypal.com/sdk/js",
    });
    expect(await (await call("/api/paypal/config")).json()).toMatchObject({ clientId: null });
  });
});
