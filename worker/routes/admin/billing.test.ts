import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Transaction, TransactionDetail, UpdateTransactionEmailResponse } from "#contract/responses";
import { paypalTransactions, subscriptions } from "../../db/schema";
import { call, createAdmin, createVerifiedCustomer, db } from "../../test/helpers";

async function seed() {
  const { apiKey } = await createAdmin();
  const customer = await createVerifiedCustomer("jane@shop.test");
  await db()
    .insert(paypalTransactions)
    .values([
      {
        transactionId: "T-OCT",
        payerEmail: "jane@shop.test",
        userId: customer.user.id,
        paymentStatus: "Completed",
        amount: "29.00",
        receivedAt: new Date("2026-10-10T10:00:00Z"),
        rawPayload: JSON.stringify({ business: "merchant@dc.test", outstanding_balance: "0.00", time_created: "x" }),
      },
      {
        transactionId: "T-NOV",
        payerEmail: "typo@shop.test",
        paymentStatus: "Pending",
        amount: "29.00",
        receivedAt: new Date("2026-11-10T10:00:00Z"),
      },
      {
        transactionId: "T-DEC",
        payerEmail: "bob@other.test",
        paymentStatus: "completed",
        amount: "abc",
        receivedAt: new Date("2026-12-10T10:00:00Z"),
      },
    ]);
  return { apiKey, customer };
}

const list = async (apiKey: string, query = "") =>
  ((await (await call(`/api/admin/billing/transactions${query}`, { apiKey })).json()) as Transaction[]).map(
    (t) => t.transactionId,
  );

describe("/api/admin/billing/transactions", () => {
  it("lists transactions newest first, marking payers without an account", async () => {
    const { apiKey } = await seed();
    const rows = (await (await call("/api/admin/billing/transactions", { apiKey })).json()) as Transaction[];
    expect(rows.map((t) => [t.transactionId, t.hasMatchingUser])).toEqual([
      ["T-DEC", false],
      ["T-NOV", false],
      ["T-OCT", true],
    ]);
    expect(rows.find((t) => t.transactionId === "T-OCT")!.amount).toBe(29);
    expect(rows.find((t) => t.transactionId === "T-DEC")!.amount).toBe("abc");
  });

  it("marks exactly the payments linked to no account: a subscriber paying from another address is never red", async () => {
    const { apiKey, customer } = await seed();
    await db().insert(subscriptions).values({ userId: customer.user.id, subscriptionId: "I-JANE", status: "active" });
    await db()
      .insert(paypalTransactions)
      .values([
        // Linked through the subscription, paid from an address no account has.
        { transactionId: "T-SUB", userId: customer.user.id, recurringPaymentId: "I-JANE", payerEmail: "pp@else.test" },
        // From the customer's address but linked to none (it arrived before the account existed).
        { transactionId: "T-NONE", payerEmail: "jane@shop.test" },
      ]);
    const marks = async (path: string) =>
      Object.fromEntries(
        ((await (await call(path, { apiKey })).json()) as Transaction[]).map((t) => [
          t.transactionId,
          t.hasMatchingUser,
        ]),
      );
    expect(await marks("/api/admin/billing/transactions")).toEqual({
      "T-SUB": true,
      "T-NONE": false,
      "T-OCT": true,
      "T-NOV": false,
      "T-DEC": false,
    });
    const detail = async (id: string) =>
      ((await (await call(`/api/admin/billing/transaction/${id}`, { apiKey })).json()) as TransactionDetail)
        .hasMatchingUser;
    expect([await detail("T-SUB"), await detail("T-NONE")]).toEqual([true, false]);
    // The per-user tab lists what is linked to the customer or paid from their address, marked by the same rule.
    expect(await marks(`/api/admin/users/${customer.user.id}/transactions`)).toEqual({
      "T-SUB": true,
      "T-NONE": false,
      "T-OCT": true,
    });
  });

  it("filters by dates, status and payer email", async () => {
    const { apiKey } = await seed();
    expect(await list(apiKey, "?startDate=2026-11-01T00:00:00.000Z")).toEqual(["T-DEC", "T-NOV"]);
    expect(await list(apiKey, "?endDate=2026-11-10T10:00:00.000Z")).toEqual(["T-NOV", "T-OCT"]);
    expect(await list(apiKey, "?startDate=2026-11-01&endDate=2026-11-30")).toEqual(["T-NOV"]);
    expect(await list(apiKey, "?status=completed")).toEqual(["T-DEC", "T-OCT"]);
    expect(await list(apiKey, "?email=SHOP.test")).toEqual(["T-NOV", "T-OCT"]);
    expect(await list(apiKey, "?status=Completed&email=bob")).toEqual(["T-DEC"]);
  });

  it("refuses a date that is not one", async () => {
    const { apiKey } = await seed();
    const res = await call("/api/admin/billing/transactions?startDate=yesterday", { apiKey });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid date" });
  });
});

describe("/api/admin/billing/transaction/:id", () => {
  it("answers the grouped detail", async () => {
    const { apiKey } = await seed();
    const detail = (await (await call("/api/admin/billing/transaction/T-OCT", { apiKey })).json()) as TransactionDetail;
    expect(detail).toMatchObject({
      transactionId: "T-OCT",
      hasMatchingUser: true,
      payerInfo: { email: "jane@shop.test" },
      paymentDetails: { amount: 29, paymentStatus: "Completed", outstandingBalance: "0.00", shipping: null },
      merchantInfo: { businessEmail: "merchant@dc.test" },
      additionalInfo: { timeCreated: "x" },
    });
    expect((await call("/api/admin/billing/transaction/NOPE", { apiKey })).status).toBe(404);
  });

  it("updates the payer email and relinks the transaction to that account", async () => {
    const { apiKey, customer } = await seed();
    const res = await call("/api/admin/billing/transaction/T-NOV/update-email", {
      method: "PATCH",
      apiKey,
      json: { email: "Jane@Shop.test" },
    });
    const body = (await res.json()) as UpdateTransactionEmailResponse;
    expect(body.message).toBe("Email updated successfully");
    expect(body.linked).toEqual({ email: "jane@shop.test", by: "email" });
    expect(body.transaction).toMatchObject({ hasMatchingUser: true, payerInfo: { email: "jane@shop.test" } });
    const row = (await db().select().from(paypalTransactions).where(eq(paypalTransactions.transactionId, "T-NOV")))[0]!;
    expect(row.userId).toBe(customer.user.id);
    const history = (await (await call("/api/user/payment-history", { apiKey: customer.apiKey })).json()) as unknown[];
    expect(history).toHaveLength(2);
  });

  it("never takes a payment from the holder of its subscription, and says when no account matches", async () => {
    const { apiKey, customer } = await seed();
    const other = await createVerifiedCustomer("bob@other.test");
    await db().insert(subscriptions).values({ userId: customer.user.id, subscriptionId: "I-JANE", status: "active" });
    await db()
      .update(paypalTransactions)
      .set({ recurringPaymentId: "I-JANE" })
      .where(eq(paypalTransactions.transactionId, "T-OCT"));
    const correct = (email: string, id = "T-OCT") =>
      call(`/api/admin/billing/transaction/${id}/update-email`, { method: "PATCH", apiKey, json: { email } });

    // Another customer's address as payer: the payment stays the subscriber's, and the answer says so.
    const moved = (await (await correct("bob@other.test")).json()) as UpdateTransactionEmailResponse;
    expect(moved.linked).toEqual({ email: "jane@shop.test", by: "subscription" });
    expect(moved.transaction.payerInfo.email).toBe("bob@other.test");
    const jane = (await (await call("/api/user/payment-history", { apiKey: customer.apiKey })).json()) as unknown[];
    expect(jane).toHaveLength(1);
    const bob = (await (await call("/api/user/payment-history", { apiKey: other.apiKey })).json()) as unknown[];
    expect(bob).toHaveLength(0);

    // An address with no account, on a payment without a subscription: linked to none, and said.
    const none = (await (await correct("nobody@shop.test", "T-NOV")).json()) as UpdateTransactionEmailResponse;
    expect(none.linked).toBeNull();
    const row = (await db().select().from(paypalTransactions).where(eq(paypalTransactions.transactionId, "T-NOV")))[0]!;
    expect(row.userId).toBeNull();
  });

  it("refuses an invalid email with 'Invalid payer email' and changes nothing", async () => {
    const { apiKey } = await seed();
    const res = await call("/api/admin/billing/transaction/T-NOV/update-email", {
      method: "PATCH",
      apiKey,
      json: { email: "x" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid payer email" });
    const row = (await db().select().from(paypalTransactions).where(eq(paypalTransactions.transactionId, "T-NOV")))[0]!;
    expect(row.payerEmail).toBe("typo@shop.test");
  });
});
