import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { MessageResponse, PaymentHistoryItem, UnclaimedSubscription } from "#contract/responses";
import { paypalTransactions, productVersions, subscriptions, unclaimedSubscriptions, users } from "../db/schema";
import { TOTAL_COUNT_HEADER } from "../http/paging";
import { call, createAdmin, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import {
  activeSubscription,
  ipnBody,
  monthlyPlan,
  payPalDate,
  paypalEnv,
  postIpn,
  toSecond,
  usePayPalFake,
} from "../test/paypal";
import { NEEDS_REST_API, NO_ACCOUNT, NOT_THEIRS, NOT_UNCLAIMED } from "./unclaimed-subscriptions";

const paypal = usePayPalFake();
const LIST = "/api/admin/billing/unclaimed-subscriptions";

const quiet = () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "info").mockImplementation(() => undefined);
};

/** A customer, an admin, the Growth plan (29.00 USD, P-GROWTH at PayPal) and no stored subscription. */
async function setting() {
  quiet();
  const customer = await createVerifiedCustomer("owner@example.com");
  const admin = await createAdmin();
  const [growth] = await db()
    .insert(productVersions)
    .values({ name: "Growth", paypalPlanId: "P-GROWTH", priceCents: 2900 })
    .returning();
  paypal.plans["P-GROWTH"] = monthlyPlan("29.00");
  return { customer, admin, growth: growth! };
}

/** A completed payment of I-LOST, which no account stores, `hoursAgo` ago. */
async function lostPayment(fields: Record<string, string> = {}, hoursAgo = 1) {
  const paid = toSecond(new Date(Date.now() - hoursAgo * 3_600_000));
  const res = await postIpn(
    ipnBody({
      recurring_payment_id: "I-LOST",
      payer_email: "Owner@Example.com",
      payment_date: payPalDate(paid),
      ...fields,
    }),
  );
  expect(res.status).toBe(200);
}

async function unclaimed(apiKey: string) {
  const res = await call(LIST, { apiKey });
  expect(res.status).toBe(200);
  return { rows: (await res.json()) as UnclaimedSubscription[], total: Number(res.headers.get(TOTAL_COUNT_HEADER)) };
}

const act = (apiKey: string, action: "link" | "cancel", id = "I-LOST", e = paypalEnv()) =>
  call(`${LIST}/${id}/${action}`, { method: "POST", apiKey }, e);

const transaction = async (id = "TXN-1") =>
  (await db().select().from(paypalTransactions).where(eq(paypalTransactions.transactionId, id)))[0]!;

describe("a payment of a subscription no account stores", () => {
  it("shows in the payer's Payment History and, with that account, in the admin's unclaimed list; grants nothing", async () => {
    const { customer, admin } = await setting();
    const before = (await db().select().from(users).where(eq(users.id, customer.user.id)))[0]!;
    await lostPayment();

    const history = await call("/api/user/payment-history", { apiKey: customer.apiKey });
    expect(history.headers.get(TOTAL_COUNT_HEADER)).toBe("1");
    expect(((await history.json()) as PaymentHistoryItem[]).map((p) => [p.transactionId, p.billingPeriod])).toEqual([
      ["TXN-1", { start: null, end: null }],
    ]);
    expect(await unclaimed(admin.apiKey)).toEqual({
      total: 1,
      rows: [
        {
          subscriptionId: "I-LOST",
          lastPaymentAt: (await transaction()).receivedAt!.toISOString(),
          transactionId: "TXN-1",
          payerEmail: "owner@example.com",
          productName: "Growth",
          amount: 29,
          currency: "USD",
          account: { id: customer.user.id, email: "owner@example.com" },
        },
      ],
    });
    const after = (await db().select().from(users).where(eq(users.id, customer.user.id)))[0]!;
    expect(after.productVersionId).toBe(before.productVersionId);
    expect(await db().select().from(subscriptions)).toEqual([]);
  });

  it("from an address that is no customer's stays unlinked, is listed with no account, and cannot be linked", async () => {
    const { admin } = await setting();
    await lostPayment({ payer_email: "stranger@else.test" });
    expect((await transaction()).userId).toBeNull();
    expect((await unclaimed(admin.apiKey)).rows.map((r) => [r.subscriptionId, r.account])).toEqual([["I-LOST", null]]);
    const res = await act(admin.apiKey, "link");
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: NO_ACCOUNT });
    expect(await db().select().from(subscriptions)).toEqual([]);
  });

  it("keeps one row per subscription with its latest payment; pending, refunds and other payments are not listed", async () => {
    const { admin } = await setting();
    await lostPayment({ txn_id: "TXN-NEW" }, 1);
    await lostPayment({ txn_id: "TXN-OLD", ipn_track_id: "t-old" }, 24 * 31);
    await lostPayment({ txn_id: "TXN-P", recurring_payment_id: "I-PENDING", payment_status: "Pending" });
    await lostPayment({ txn_id: "TXN-R", parent_txn_id: "TXN-NEW", payment_status: "Refunded", mc_gross: "-29.00" });
    const { rows, total } = await unclaimed(admin.apiKey);
    expect(total).toBe(1);
    expect(rows.map((r) => [r.subscriptionId, r.transactionId])).toEqual([["I-LOST", "TXN-NEW"]]);
  });

  it("leaves the list once the subscription is stored, by whatever path", async () => {
    const { customer, admin } = await setting();
    await lostPayment();
    await db().insert(subscriptions).values({ userId: customer.user.id, subscriptionId: "I-LOST", status: "active" });
    expect(await unclaimed(admin.apiKey)).toEqual({ rows: [], total: 0 });
  });
});

describe("POST /api/admin/billing/unclaimed-subscriptions/:id/link", () => {
  it("stores the subscription for the payment's account, grants the plan its PayPal plan id names, counts the payment", async () => {
    const { customer, admin, growth } = await setting();
    paypal.subscriptions["I-LOST"] = activeSubscription(customer.user.id, "P-GROWTH");
    await lostPayment();

    const res = await act(admin.apiKey, "link");
    expect(res.status).toBe(200);
    expect(((await res.json()) as MessageResponse).message).toBe("Linked to owner@example.com. Subscribed to Growth");
    const [stored] = await db().select().from(subscriptions);
    expect(stored).toMatchObject({ userId: customer.user.id, subscriptionId: "I-LOST", productVersionId: growth.id });
    const user = (await db().select().from(users).where(eq(users.id, customer.user.id)))[0]!;
    expect(user).toMatchObject({ productVersionId: growth.id, planSource: "paypal" });
    expect((await transaction()).periodEnd).not.toBeNull();
    expect(await unclaimed(admin.apiKey)).toEqual({ rows: [], total: 0 });
    expect(await db().select().from(unclaimedSubscriptions)).toEqual([]);
  });

  it("refuses (400, nothing stored) when PayPal names another buyer for the subscription", async () => {
    const { admin } = await setting();
    const other = await createVerifiedCustomer("other@example.com");
    paypal.subscriptions["I-LOST"] = activeSubscription(other.user.id, "P-GROWTH");
    await lostPayment();
    const res = await act(admin.apiKey, "link");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: NOT_THEIRS("owner@example.com") });
    expect(await db().select().from(subscriptions)).toEqual([]);
    expect((await unclaimed(admin.apiKey)).total).toBe(1);
  });
});

describe("POST /api/admin/billing/unclaimed-subscriptions/:id/cancel", () => {
  it("cancels it at PayPal and leaves the list; a payment made after the cancel shows it again", async () => {
    const { customer, admin } = await setting();
    paypal.subscriptions["I-LOST"] = activeSubscription(customer.user.id, "P-GROWTH");
    await lostPayment({}, 2);

    const res = await act(admin.apiKey, "cancel");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: "Subscription I-LOST is cancelled at PayPal: it will not be charged again.",
    });
    expect(paypal.cancels).toEqual(["I-LOST"]);
    expect((await unclaimed(admin.apiKey)).total).toBe(0);

    // PayPal sends the same notification again: still cancelled.
    await lostPayment({}, 2);
    expect((await unclaimed(admin.apiKey)).total).toBe(0);
    // PayPal charges it after the cancel: the admin must see it again.
    await lostPayment({ txn_id: "TXN-LATER", payment_date: payPalDate(new Date(Date.now() + 60_000)) });
    expect((await unclaimed(admin.apiKey)).rows.map((r) => r.transactionId)).toEqual(["TXN-LATER"]);
  });

  it("answers 502 and keeps it listed when PayPal does not confirm the cancel", async () => {
    const { admin } = await setting();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await lostPayment();
    paypal.restDown = true;
    const res = await act(admin.apiKey, "cancel");
    expect(res.status).toBe(502);
    expect((await unclaimed(admin.apiKey)).total).toBe(1);
  });
});

describe("linking and cancelling refused", () => {
  it("needs PayPal's REST credentials (409) and an unclaimed subscription (404); changes nothing", async () => {
    const { admin } = await setting();
    await lostPayment();
    const noRest = testEnv({ PAYPAL_RECEIVER_EMAIL: "merchant@dc.test" });
    for (const action of ["link", "cancel"] as const) {
      const refused = await act(admin.apiKey, action, "I-LOST", noRest);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({ error: NEEDS_REST_API });
      const unknown = await act(admin.apiKey, action, "I-NOBODY");
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: NOT_UNCLAIMED });
    }
    expect(paypal.cancels).toEqual([]);
    expect(await db().select().from(subscriptions)).toEqual([]);
    expect((await unclaimed(admin.apiKey)).total).toBe(1);
  });
});
