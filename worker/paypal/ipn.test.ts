import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { paypalTransactions, productVersions, subscriptions, users } from "../db/schema";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { SANDBOX_IPN_VERIFY_URL } from "./config";

/** PayPal's IPN post-back, faked: it answers `verdict` and remembers what it was sent. */
let verdict = "VERIFIED";
let postedBack: Uint8Array[] = [];
beforeEach(() => {
  verdict = "VERIFIED";
  postedBack = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === SANDBOX_IPN_VERIFY_URL) {
      postedBack.push(new Uint8Array(await new Response(init!.body).arrayBuffer()));
      return new Response(verdict);
    }
    return realFetch(input, init);
  });
});
afterEach(() => vi.restoreAllMocks());

const NEXT = "03:00:00 Dec 22, 2026 PST";
const PAID = "03:00:00 Nov 22, 2026 PST";

function ipnBody(fields: Record<string, string>): string {
  return Object.entries({
    mc_gross: "29.00",
    outstanding_balance: "0.00",
    period_type: " Regular",
    next_payment_date: NEXT,
    protection_eligibility: "Eligible",
    payment_cycle: "Monthly",
    address_status: "confirmed",
    tax: "0.00",
    payer_id: "PAYER123",
    address_street: "1 Main St",
    payment_date: PAID,
    payment_status: "Completed",
    product_name: "Growth",
    charset: "UTF-8",
    recurring_payment_id: "I-SUB1",
    address_zip: "10115",
    first_name: "Jane",
    mc_fee: "1.14",
    address_country_code: "DE",
    address_name: "Jane Doe",
    notify_version: "3.9",
    amount_per_cycle: "29.00",
    payer_status: "verified",
    currency_code: "USD",
    business: "merchant@dc.test",
    address_country: "Germany",
    address_city: "Berlin",
    verify_sign: "AbC123",
    payer_email: "Jane@Shop.test",
    initial_payment_amount: "0.00",
    profile_status: "Active",
    amount: "29.00",
    txn_id: "TXN-1",
    payment_type: "instant",
    last_name: "Doe",
    address_state: "Berlin",
    receiver_email: "merchant@dc.test",
    payment_fee: "",
    receiver_id: "RECV1",
    txn_type: "recurring_payment",
    mc_currency: "USD",
    residence_country: "DE",
    transaction_subject: "Growth plan",
    payment_gross: "29.00",
    product_type: "1",
    time_created: "02:59:00 Oct 22, 2026 PST",
    ipn_track_id: "track1",
    ...fields,
  })
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%20/g, "+")}`)
    .join("&");
}

async function postIpn(body: string | Uint8Array, e = testEnv()) {
  const res = await call(
    "/api/paypal/ipn",
    { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } },
    e,
  );
  expect(res.status).toBe(200);
  return res;
}

const stored = () => db().select().from(paypalTransactions);

describe("POST /api/paypal/ipn", () => {
  it("verifies by posting the body back byte for byte and stores the transaction with every field", async () => {
    const body = ipnBody({});
    await postIpn(body);
    expect(new TextDecoder().decode(postedBack[0])).toBe(`cmd=_notify-validate&${body}`);
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
      nextPaymentDate: "2026-12-22T11:00:00.000Z",
      profileStatus: "Active",
      receiverEmail: "merchant@dc.test",
      receiverId: "RECV1",
      ipnTrackId: "track1",
      notifyVersion: "3.9",
      verifySign: "AbC123",
      receivedAt: new Date("2026-11-22T11:00:00.000Z"),
      userId: null,
    });
  });

  it("ignores a message PayPal calls INVALID", async () => {
    verdict = "INVALID";
    const log = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await postIpn(ipnBody({}));
    expect(await stored()).toHaveLength(0);
    expect(log.mock.calls.flat().join(" ")).toContain("IPN ignored");
  });

  it("stores a transaction PayPal sends again only once", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await postIpn(ipnBody({}));
    await postIpn(ipnBody({ mc_gross: "99.00" }));
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.amount).toBe("29.00");
  });

  it("decodes windows-1252 and UTF-8 messages, and posts the raw bytes back unchanged", async () => {
    const latin = new TextEncoder().encode(
      ipnBody({ charset: "windows-1252", txn_id: "W1" }).replace("first_name=Jane", "first_name=J%FCrgen"),
    );
    await postIpn(latin);
    expect(postedBack[0]!.slice(21)).toEqual(latin);
    await postIpn(ipnBody({ txn_id: "U1", first_name: "Jürgen" }));
    expect((await stored()).map((t) => t.payerFirstName)).toEqual(["Jürgen", "Jürgen"]);
  });

  it("ignores a message for another receiver when PAYPAL_RECEIVER_EMAIL is set", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await postIpn(
      ipnBody({ receiver_email: "someone@else.test" }),
      testEnv({ PAYPAL_RECEIVER_EMAIL: "merchant@dc.test" }),
    );
    expect(await stored()).toHaveLength(0);
    await postIpn(ipnBody({}), testEnv({ PAYPAL_RECEIVER_EMAIL: "Merchant@DC.test" }));
    expect(await stored()).toHaveLength(1);
  });

  it("links a payment to the customer by subscription id, moves the billing period and keeps the plan in step", async () => {
    const { user } = await createVerifiedCustomer("owner@example.com");
    const [growth] = await db()
      .insert(productVersions)
      .values({ name: "Growth", paypalPlanId: "P-GROWTH" })
      .returning();
    await db().insert(subscriptions).values({ userId: user.id, subscriptionId: "I-SUB1", planId: "P-GROWTH" });
    await postIpn(ipnBody({ payer_email: "someone-else@paypal.test" }));
    expect((await stored())[0]!.userId).toBe(user.id);
    const after = (await db().select().from(users).where(eq(users.id, user.id)))[0]!;
    expect(after.billingPeriodStart).toEqual(new Date("2026-11-22T11:00:00.000Z"));
    expect(after.billingPeriodEnd).toEqual(new Date("2026-12-22T11:00:00.000Z"));
    expect(after.productVersionId).toBe(growth!.id);
  });

  it("links a payment by payer email when no subscription is known", async () => {
    const { user } = await createVerifiedCustomer("jane@shop.test");
    await postIpn(ipnBody({ recurring_payment_id: "I-UNKNOWN" }));
    expect((await stored())[0]!.userId).toBe(user.id);
  });

  it("marks the profile cancelled on a cancellation", async () => {
    const { user } = await createVerifiedCustomer("jane@shop.test");
    await db().insert(subscriptions).values({ userId: user.id, subscriptionId: "I-SUB1", planId: "P-GROWTH" });
    await postIpn(ipnBody({}));
    const cancel = ipnBody({
      txn_type: "recurring_payment_profile_cancel",
      profile_status: "Cancelled",
      ipn_track_id: "t2",
    }).replace(/&txn_id=[^&]*/, "");
    await postIpn(cancel);
    expect((await stored()).map((t) => t.profileStatus)).toEqual(["Cancelled"]);
    expect((await db().select().from(subscriptions))[0]!.status).toBe("cancelled");
  });

  it("changes nothing for a malformed message", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await postIpn("this is not a notification");
    expect(await stored()).toHaveLength(0);
  });

  it("answers 200 even before the message is handled", async () => {
    const res = await call("/api/paypal/ipn", { method: "POST", body: ipnBody({}) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});
