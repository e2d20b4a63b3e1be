import { describe, expect, it } from "vitest";
import type { AdminOverview } from "#contract/responses";
import { paypalTransactions } from "../../db/schema";
import { recordMailFailure } from "../../models/mail-failures";
import { revenue, type RevenueScope } from "../../models/revenue";
import { call, createAdmin, createVerifiedCustomer, db, testEnv } from "../../test/helpers";

const DAY = 86_400_000;
const RECEIVER = "merchant@dc.test";
const ours = { receiverEmail: RECEIVER, currency: "USD" };
const scope: RevenueScope = { receiverEmail: RECEIVER, receiverId: null, currency: "USD" };

describe("GET /api/admin/overview", () => {
  it("lists the newest mails that could not be sent: when, which mail, the masked recipient and why", async () => {
    const { apiKey } = await createAdmin();
    const at = Date.UTC(2026, 10, 27, 12);
    await recordMailFailure(
      db(),
      { kind: "verification", to: "anna@example.com", error: "SMTP: old", blocksMail: true },
      at,
    );
    await recordMailFailure(
      db(),
      { kind: "login-code", to: "bob@example.com", error: "SMTP: new", blocksMail: false },
      at + 1,
    );

    const body = await (await call("/api/admin/overview", { apiKey })).json<AdminOverview>();
    expect(body.mailFailures).toEqual([
      { at: new Date(at + 1).toISOString(), kind: "login-code", recipient: "bo•••@example.com", error: "SMTP: new" },
      { at: new Date(at).toISOString(), kind: "verification", recipient: "an•••@example.com", error: "SMTP: old" },
    ]);
  });

  it("counts users and sums our completed revenue of the last 7 days and the current year, in the billing currency", async () => {
    const { apiKey } = await createAdmin();
    await createVerifiedCustomer("c@example.com");
    const now = Date.now();
    await db()
      .insert(paypalTransactions)
      .values([
        { ...ours, transactionId: "A", amount: "10.50", paymentStatus: "Completed", receivedAt: new Date(now - DAY) },
        {
          ...ours,
          transactionId: "B",
          amount: "5.25",
          paymentStatus: "completed",
          receivedAt: new Date(now - 2 * DAY),
        },
        { ...ours, transactionId: "C", amount: "99", paymentStatus: "Pending", receivedAt: new Date(now - DAY) },
        { ...ours, transactionId: "D", amount: "abc", paymentStatus: "Completed", receivedAt: new Date(now - DAY) },
        { ...ours, transactionId: "E", amount: "7", paymentStatus: "Completed", receivedAt: null },
        { ...ours, transactionId: "F", amount: "1e3", paymentStatus: "Completed", receivedAt: new Date(now - DAY) },
      ]);
    const e = testEnv({ PAYPAL_RECEIVER_EMAIL: "Merchant@DC.test" });
    const body = await (await call("/api/admin/overview", { apiKey }, e)).json();
    expect(body).toMatchObject({ totalUsers: 2, revenueLast7Days: 15.75, currency: "USD" });
  });

  it("counts only our receiver's payments in the configured currency, without payments taken back", async () => {
    const { apiKey } = await createAdmin();
    const at = new Date(Date.now() - DAY);
    const completed = { ...ours, paymentStatus: "Completed", receivedAt: at };
    await db()
      .insert(paypalTransactions)
      .values([
        { ...completed, transactionId: "usd", amount: "29.00" },
        { ...completed, transactionId: "eur", amount: "100.00", currency: "EUR" },
        { ...completed, transactionId: "theirs", amount: "200.00", receiverEmail: "someone@else.test" },
        { ...completed, transactionId: "refunded", amount: "40.00" },
        {
          ...ours,
          transactionId: "refund",
          amount: "-40.00",
          paymentStatus: "Refunded",
          receivedAt: at,
          parentTransactionId: "refunded",
        },
        { ...completed, transactionId: "reversed", amount: "50.00" },
        {
          ...ours,
          transactionId: "reversal",
          amount: "-50.00",
          paymentStatus: "Reversed",
          receivedAt: at,
          parentTransactionId: "reversed",
        },
        { ...completed, transactionId: "partly", amount: "10.00" },
        {
          ...ours,
          transactionId: "partial",
          amount: "-3.00",
          paymentStatus: "Refunded",
          receivedAt: at,
          parentTransactionId: "partly",
        },
      ]);
    const usd = await (
      await call("/api/admin/overview", { apiKey }, testEnv({ PAYPAL_RECEIVER_EMAIL: RECEIVER }))
    ).json();
    expect(usd).toMatchObject({ revenueLast7Days: 39, revenueCurrentYear: expect.any(Number), currency: "USD" });
    const eur = await (
      await call(
        "/api/admin/overview",
        { apiKey },
        testEnv({ PAYPAL_RECEIVER_EMAIL: RECEIVER, BILLING_CURRENCY: "EUR" }),
      )
    ).json();
    expect(eur).toMatchObject({ revenueLast7Days: 100, currency: "EUR" });
    // Without a configured receiver nothing is ours.
    expect(await (await call("/api/admin/overview", { apiKey }, testEnv())).json()).toMatchObject({
      revenueLast7Days: 0,
    });
  });

  it("puts the 7-day and year windows at their boundaries", async () => {
    const now = new Date("2026-01-03T12:00:00Z");
    const completed = { ...ours, paymentStatus: "Completed" };
    await db()
      .insert(paypalTransactions)
      .values([
        { ...completed, transactionId: "in7", amount: "1", receivedAt: new Date(now.getTime() - 7 * DAY) },
        { ...completed, transactionId: "out7", amount: "2", receivedAt: new Date(now.getTime() - 7 * DAY - 1) },
        { ...completed, transactionId: "lastYear", amount: "4", receivedAt: new Date("2025-12-31T23:59:59.999Z") },
        { ...completed, transactionId: "newYear", amount: "8", receivedAt: new Date("2026-01-01T00:00:00Z") },
        { ...completed, transactionId: "future", amount: "16", receivedAt: new Date(now.getTime() + 1) },
      ]);
    expect(await revenue(db(), scope, now)).toEqual({
      revenueLast7Days: 1 + 4 + 8,
      revenueCurrentYear: 8,
      currency: "USD",
    });
  });
});
