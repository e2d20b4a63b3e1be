import { env } from "cloudflare:workers";
import { addMonths } from "date-fns";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { settleDueBilling } from "./periods";
import { paypalTransactions, productVersions, subscriptions, usageCounters, users } from "../db/schema";
import { createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { ipnBody, payPalDate, paypalEnv, postIpn, RECEIVER, toSecond, usePayPalFake } from "../test/paypal";
import { PAYPAL_HOSTS } from "../paypal/config";
import { claimSubscriptionTransactions } from "../models/transactions";

const paypal = usePayPalFake();
const DAY = 86_400_000;

const stored = () => db().select().from(paypalTransactions).orderBy(paypalTransactions.id);
const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const subscriptionRow = async (id = "I-SUB1") =>
  (await db().select().from(subscriptions).where(eq(subscriptions.subscriptionId, id)))[0]!;
const quiet = () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "info").mockImplementation(() => undefined);
};

/** A customer with usage this period, the Growth plan (29.00 USD) and a stored subscription I-SUB1 for it. */
async function subscriber(status: "pending" | "active" = "pending") {
  const { user, apiKey } = await createVerifiedCustomer("owner@example.com");
  const [growth] = await db()
    .insert(productVersions)
    .values({ name: "Growth", paypalPlanId: "P-GROWTH", priceCents: 2900, dynamicContentLimit: 5000 })
    .returning();
  await db()
    .insert(subscriptions)
    .values({ userId: user.id, subscriptionId: "I-SUB1", planId: "P-GROWTH", productVersionId: growth!.id, status });
  await db()
    .insert(usageCounters)
    .values({ userId: user.id, totalRequests: 50, periodRequests: 40, periodDeliveries: 30 });
  return { user, apiKey, growth: growth! };
}

async function expectOk(body: string | Uint8Array, e = paypalEnv()) {
  const res = await postIpn(body, e);
  expect(res.status).toBe(200);
}

describe("POST /api/paypal/ipn: only verified notifications for our receiver", () => {
  it("verifies with production PayPal by default, posting the body back byte for byte, and answers once stored", async () => {
    quiet();
    const paid = toSecond(new Date(Date.now() - 3_600_000));
    const body = ipnBody({ payment_date: payPalDate(paid) });
    const res = await postIpn(body);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    expect(paypal.postedBack).toHaveLength(1);
    expect(paypal.postedBack[0]!.url).toBe("https://ipnpb.paypal.com/cgi-bin/webscr");
    expect(new TextDecoder().decode(paypal.postedBack[0]!.body)).toBe(`cmd=_notify-validate&${body}`);
    const [t] = await stored();
    expect(t).toMatchObject({
      payerEmail: "jane@shop.test",
      originalEmail: "Jane@Shop.test",
      emailCopy: "Jane@Shop.test",
      payerFirstName: "Jane",
      payerLastName: "Doe",
      payerId: "PAYER123",
      payerStatus: "verified",
      productName: "Growth",
      productType: "1",
      amount: "29.00",
      currency: "USD",
      fee: "1.14",
      tax: "0.00",
      transactionId: "TXN-1",
      recurringPaymentId: "I-SUB1",
      transactionType: "recurring_payment",
      paymentStatus: "Completed",
      paymentType: "instant",
      addressName: "Jane Doe",
      addressStreet: "1 Main St",
      addressCity: "Berlin",
      addressState: "Berlin",
      addressZip: "10115",
      addressCountry: "Germany",
      addressCountryCode: "DE",
      residenceCountry: "DE",
      addressStatus: "confirmed",
      subscriptionType: " Regular",
      paymentCycle: "Monthly",
      profileStatus: "Active",
      receiverEmail: RECEIVER,
      receiverId: "RECV1",
      ipnTrackId: "track1",
      notifyVersion: "3.9",
      verifySign: "AbC123",
      userId: null,
      periodStart: null,
    });
    expect(t!.receivedAt).toEqual(paid);
  });

  it("uses PayPal's sandbox only when PAYPAL_ENVIRONMENT=sandbox", async () => {
    quiet();
    await expectOk(ipnBody({}), paypalEnv({ PAYPAL_ENVIRONMENT: "sandbox" }));
    expect(paypal.postedBack[0]!.url).toBe(PAYPAL_HOSTS.sandbox.ipnVerifyUrl);
  });

  it("refuses a message PayPal calls INVALID (400) and changes nothing", async () => {
    paypal.verdict = "INVALID";
    const log = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const res = await postIpn(ipnBody({}));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "PayPal did not verify this notification" });
    expect(await stored()).toHaveLength(0);
    expect(log.mock.calls.flat().join(" ")).toContain("INVALID");
  });

  it("answers 503 while PayPal's verification cannot be reached, and takes the message when PayPal retries", async () => {
    quiet();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    paypal.verdict = new Error("connection reset");
    expect((await postIpn(ipnBody({}))).status).toBe(503);
    paypal.verdict = 500;
    expect((await postIpn(ipnBody({}))).status).toBe(503);
    expect(await stored()).toHaveLength(0);
    expect(errors).toHaveBeenCalled();
    paypal.verdict = "VERIFIED";
    await expectOk(ipnBody({}));
    expect(await stored()).toHaveLength(1);
  });

  it("answers 500 when the message cannot be stored, so PayPal sends it again", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = new Proxy(env.DB, {
      get(target, key) {
        if (key === "prepare" || key === "batch") {
          return () => {
            throw new Error("D1 is unavailable");
          };
        }
        return Reflect.get(target, key);
      },
    });
    expect((await postIpn(ipnBody({}), paypalEnv({ DB: broken }))).status).toBe(500);
    expect(await stored()).toHaveLength(0);
  });

  it("without our receiver configured answers 503 (PayPal keeps it), verifies and stores nothing", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await postIpn(ipnBody({}), testEnv());
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "Payment notifications are not configured yet" });
    expect(paypal.postedBack).toHaveLength(0);
    expect(await stored()).toHaveLength(0);
    expect(errors.mock.calls.flat().join(" ")).toContain("PAYPAL_RECEIVER_EMAIL");
  });

  it("ignores a verified message for another receiver; matches our email in any case, or our merchant id", async () => {
    quiet();
    await expectOk(ipnBody({ receiver_email: "someone@else.test", business: "someone@else.test" }));
    await expectOk(ipnBody({ txn_id: "T-ID" }), testEnv({ PAYPAL_RECEIVER_ID: "OTHER" }));
    expect(await stored()).toHaveLength(0);
    await expectOk(ipnBody({ txn_id: "T-MAIL" }), testEnv({ PAYPAL_RECEIVER_EMAIL: "Merchant@DC.test" }));
    await expectOk(ipnBody({ txn_id: "T-ID" }), testEnv({ PAYPAL_RECEIVER_ID: "RECV1" }));
    expect((await stored()).map((t) => t.transactionId)).toEqual(["T-MAIL", "T-ID"]);
  });

  it("refuses test_ipn=1 outside the sandbox without asking PayPal, and takes it in the sandbox", async () => {
    quiet();
    const res = await postIpn(ipnBody({ test_ipn: "1" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Test notifications are accepted only in the PayPal sandbox" });
    expect(paypal.postedBack).toHaveLength(0);
    expect(await stored()).toHaveLength(0);
    await expectOk(ipnBody({ test_ipn: "1" }), paypalEnv({ PAYPAL_ENVIRONMENT: "sandbox" }));
    expect(await stored()).toHaveLength(1);
  });

  it("refuses what is not a notification (400) and an oversized body (413)", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const res = await postIpn("this is not a notification");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "This is not a PayPal notification" });
    expect((await postIpn(ipnBody({ memo: "x".repeat(10_000) }))).status).toBe(413);
    expect(paypal.postedBack).toHaveLength(0);
    expect(await stored()).toHaveLength(0);
  });

  it("stores a transaction PayPal sends again only once, and answers the repeat 200", async () => {
    quiet();
    await expectOk(ipnBody({}));
    await expectOk(ipnBody({ mc_gross: "99.00" }));
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.amount).toBe("29.00");
  });

  it("decodes windows-1252 and UTF-8 messages, and posts the raw bytes back unchanged", async () => {
    quiet();
    const latin = new TextEncoder().encode(
      ipnBody({ charset: "windows-1252", txn_id: "W1" }).replace("first_name=Jane", "first_name=J%FCrgen"),
    );
    await expectOk(latin);
    expect(paypal.postedBack[0]!.body.slice(21)).toEqual(latin);
    await expectOk(ipnBody({ txn_id: "U1", first_name: "Jürgen" }));
    expect((await stored()).map((t) => t.payerFirstName)).toEqual(["Jürgen", "Jürgen"]);
  });
});

describe("POST /api/paypal/ipn: what a verified notification changes", () => {
  it("links a payment of no stored subscription to the payer's account for display only: it resets nothing of theirs", async () => {
    quiet();
    const { user } = await subscriber("active");
    const before = await userRow(user.id);
    await expectOk(ipnBody({ payer_email: "Owner@Example.com", recurring_payment_id: "I-UNKNOWN", mc_gross: "0.01" }));
    const [t] = await stored();
    expect(t).toMatchObject({ userId: user.id, payerEmail: "owner@example.com", periodStart: null });
    const after = await userRow(user.id);
    expect(after.billingPeriodStart).toEqual(before.billingPeriodStart);
    expect(after.productVersionId).toBe(before.productVersionId);
    expect(await db().select().from(usageCounters)).toMatchObject([{ periodRequests: 40, periodDeliveries: 30 }]);
  });

  it("moves a payment linked by its payer's email to the account that then stores its subscription", async () => {
    quiet();
    const { user } = await subscriber("active");
    await expectOk(ipnBody({ payer_email: "owner@example.com", recurring_payment_id: "I-LATER", txn_id: "L1" }));
    expect((await stored()).find((t) => t.transactionId === "L1")).toMatchObject({ userId: user.id });
    const holder = await createVerifiedCustomer("holder@example.com");
    await db().insert(subscriptions).values({ userId: holder.user.id, subscriptionId: "I-LATER", status: "active" });
    await claimSubscriptionTransactions(db(), "I-LATER", holder.user.id);
    expect((await stored()).find((t) => t.transactionId === "L1")).toMatchObject({ userId: holder.user.id });
    // A payment its own account's subscription holds stays with it.
    await claimSubscriptionTransactions(db(), "I-LATER", user.id);
    expect((await stored()).find((t) => t.transactionId === "L1")).toMatchObject({ userId: holder.user.id });
  });

  it.each([
    ["an amount that is not the plan's price", { mc_gross: "0.01" }],
    ["another currency", { mc_currency: "EUR" }],
    ["a payment that is no subscription payment", { txn_type: "web_accept" }],
  ])("counts nothing for %s, though it is stored under the customer", async (_what, fields) => {
    quiet();
    const { user, growth } = await subscriber("pending");
    const before = await userRow(user.id);
    await expectOk(ipnBody(fields));
    expect(await stored()).toMatchObject([{ userId: user.id, periodStart: null, periodEnd: null }]);
    const after = await userRow(user.id);
    expect(after.productVersionId).not.toBe(growth.id);
    expect(after.billingPeriodStart).toEqual(before.billingPeriodStart);
    expect((await subscriptionRow()).paidThrough).toBeNull();
    expect(await db().select().from(usageCounters)).toMatchObject([{ periodDeliveries: 30 }]);
  });

  it("grants the plan on the first completed payment and starts the billing period that payment paid for", async () => {
    quiet();
    const { user, growth } = await subscriber("pending");
    const paid = toSecond(new Date(Date.now() - 3_600_000));
    const next = addMonths(paid, 1);
    await expectOk(ipnBody({ payment_date: payPalDate(paid), next_payment_date: payPalDate(next) }));
    expect(await userRow(user.id)).toMatchObject({
      productVersionId: growth.id,
      planSource: "paypal",
      planPaidThrough: next,
      billingPeriodStart: paid,
      billingPeriodEnd: next,
    });
    expect(await subscriptionRow()).toMatchObject({ status: "active", paidThrough: next });
    expect(await stored()).toMatchObject([{ userId: user.id, periodStart: paid, periodEnd: next }]);
    expect(await db().select().from(usageCounters)).toMatchObject([
      { totalRequests: 50, periodRequests: 0, periodDeliveries: 0 },
    ]);
  });

  it("updates a Pending payment when it completes, and only then starts its period", async () => {
    quiet();
    const { user, growth } = await subscriber("pending");
    await expectOk(ipnBody({ payment_status: "Pending", pending_reason: "echeck", ipn_track_id: "t1" }));
    expect(await stored()).toMatchObject([{ paymentStatus: "Pending", periodEnd: null }]);
    expect((await userRow(user.id)).productVersionId).not.toBe(growth.id);

    await expectOk(ipnBody({ ipn_track_id: "t2" }));
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ paymentStatus: "Completed", ipnTrackId: "t2" });
    expect(rows[0]!.periodEnd).not.toBeNull();
    expect((await userRow(user.id)).productVersionId).toBe(growth.id);

    // A late copy of the Pending message changes nothing back.
    await expectOk(ipnBody({ payment_status: "Pending", ipn_track_id: "t1" }));
    expect((await stored())[0]!.paymentStatus).toBe("Completed");
  });

  it("moves the coverage on with a renewal, without restarting the running period", async () => {
    quiet();
    const { user } = await subscriber("pending");
    const firstPaid = toSecond(new Date(addMonths(new Date(), -1).getTime() + 2 * 3_600_000));
    const due = addMonths(firstPaid, 1);
    await expectOk(ipnBody({ payment_date: payPalDate(firstPaid), next_payment_date: payPalDate(due) }));
    await db().update(usageCounters).set({ periodDeliveries: 12 }).where(eq(usageCounters.userId, user.id));

    const renewed = toSecond(new Date(Date.now() - 60_000));
    const nextDue = addMonths(due, 1);
    await expectOk(
      ipnBody({ txn_id: "TXN-2", payment_date: payPalDate(renewed), next_payment_date: payPalDate(nextDue) }),
    );
    expect(await userRow(user.id)).toMatchObject({
      billingPeriodStart: firstPaid,
      billingPeriodEnd: due,
      planPaidThrough: nextDue,
    });
    expect((await subscriptionRow()).paidThrough).toEqual(nextDue);
    expect(await db().select().from(usageCounters)).toMatchObject([{ periodDeliveries: 12 }]);
  });

  it("takes the plan away at once when the covering payment is refunded in full; a partial refund does not", async () => {
    quiet();
    const { user, growth } = await subscriber("pending");
    await expectOk(ipnBody({}));
    const refund = (txn: string, amount: string) =>
      ipnBody({ txn_id: txn, parent_txn_id: "TXN-1", payment_status: "Refunded", mc_gross: amount, txn_type: null });
    await expectOk(refund("R-1", "-10.00"));
    expect((await userRow(user.id)).productVersionId).toBe(growth.id);
    await expectOk(refund("R-2", "-19.00"));
    const after = await userRow(user.id);
    expect(after).toMatchObject({ planSource: "default", planPaidThrough: null });
    expect(after.productVersionId).not.toBe(growth.id);
    expect((await subscriptionRow()).paidThrough).toBeNull();
    expect((await stored()).map((t) => [t.transactionId, t.userId])).toEqual([
      ["TXN-1", user.id],
      ["R-1", user.id],
      ["R-2", user.id],
    ]);
  });

  it("takes the plan away on a reversal and gives it back when the reversal is cancelled", async () => {
    quiet();
    const { user, growth } = await subscriber("pending");
    await expectOk(ipnBody({}));
    const reversal = (txn: string, status: string) =>
      ipnBody({ txn_id: txn, parent_txn_id: "TXN-1", payment_status: status, mc_gross: "-29.00", txn_type: null });
    await expectOk(reversal("V-1", "Reversed"));
    expect((await userRow(user.id)).planSource).toBe("default");
    await expectOk(reversal("V-2", "Canceled_Reversal"));
    expect(await userRow(user.id)).toMatchObject({ planSource: "paypal", productVersionId: growth.id });
  });

  it("grants nothing for a payment whose refund arrived before it", async () => {
    quiet();
    const { user, growth } = await subscriber("pending");
    await expectOk(
      ipnBody({
        txn_id: "R-1",
        parent_txn_id: "TXN-1",
        payment_status: "Refunded",
        mc_gross: "-29.00",
        txn_type: null,
      }),
    );
    await expectOk(ipnBody({}));
    expect((await userRow(user.id)).productVersionId).not.toBe(growth.id);
    expect((await subscriptionRow()).paidThrough).toBeNull();
  });

  it("marks a cancellation, keeps the plan for the paid period, and falls back to the default plan after it", async () => {
    quiet();
    const { user, growth } = await subscriber("pending");
    await expectOk(ipnBody({}));
    const cancel = ipnBody({
      txn_type: "recurring_payment_profile_cancel",
      profile_status: "Cancelled",
      ipn_track_id: "t2",
      txn_id: null,
    });
    await expectOk(cancel);
    expect((await stored()).map((t) => t.profileStatus)).toEqual(["Cancelled"]);
    expect((await subscriptionRow()).status).toBe("cancelled");
    const paidThrough = (await userRow(user.id)).planPaidThrough!;
    await settleDueBilling(env, new Date(paidThrough.getTime() + DAY));
    expect((await userRow(user.id)).productVersionId).toBe(growth.id);
    await settleDueBilling(env, new Date(paidThrough.getTime() + 4 * DAY));
    expect((await userRow(user.id)).planSource).toBe("default");
  });

  it("moves the status on suspension and expiry; a cancelled subscription stays cancelled", async () => {
    quiet();
    await subscriber("active");
    const event = (type: string) => ipnBody({ txn_type: type, txn_id: null });
    await expectOk(event("recurring_payment_suspended_due_to_max_failed_payment"));
    expect((await subscriptionRow()).status).toBe("suspended");
    await expectOk(event("recurring_payment_expired"));
    expect((await subscriptionRow()).status).toBe("expired");
    await expectOk(event("recurring_payment_suspended"));
    expect((await subscriptionRow()).status).toBe("expired");
  });

  it("replaces the customer's older subscription when a new one is first paid, cancelling it at PayPal", async () => {
    quiet();
    const { user, growth } = await subscriber("pending");
    // I-OLD was stored before I-SUB1; I-NEWER after it (approved, not yet paid: the customer's latest choice).
    const stored = { userId: user.id, planId: "P-GROWTH", productVersionId: growth.id };
    await db().delete(subscriptions);
    await db()
      .insert(subscriptions)
      .values([
        { ...stored, subscriptionId: "I-OLD", status: "active" },
        { ...stored, subscriptionId: "I-SUB1", status: "pending" },
        { ...stored, subscriptionId: "I-NEWER", status: "pending" },
      ]);
    paypal.subscriptions["I-OLD"] = { status: "ACTIVE", plan_id: "P-GROWTH", custom_id: user.id };
    await expectOk(ipnBody({}));
    expect(paypal.cancels).toEqual(["I-OLD"]);
    expect(await subscriptionRow("I-OLD")).toMatchObject({ status: "cancelled", replacedBy: "I-SUB1" });
    expect((await subscriptionRow()).replacedBy).toBeNull();
    expect(await subscriptionRow("I-NEWER")).toMatchObject({ status: "pending", replacedBy: null });
  });
});
