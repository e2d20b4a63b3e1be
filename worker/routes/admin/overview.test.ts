import { describe, expect, it } from "vitest";
import { paypalTransactions } from "../../db/schema";
import { revenue } from "../../models/revenue";
import { call, createAdmin, createVerifiedCustomer, db } from "../../test/helpers";

const DAY = 86_400_000;

describe("GET /api/admin/overview", () => {
  it("counts users and sums completed revenue of the last 7 days and the current year", async () => {
    const { apiKey } = await createAdmin();
    await createVerifiedCustomer("c@example.com");
    const now = Date.now();
    await db()
      .insert(paypalTransactions)
      .values([
        { transactionId: "A", amount: "10.50", paymentStatus: "Completed", receivedAt: new Date(now - DAY) },
        { transactionId: "B", amount: "5.25", paymentStatus: "completed", receivedAt: new Date(now - 2 * DAY) },
        { transactionId: "C", amount: "99", paymentStatus: "Pending", receivedAt: new Date(now - DAY) },
        { transactionId: "D", amount: "abc", paymentStatus: "Completed", receivedAt: new Date(now - DAY) },
        { transactionId: "E", amount: "7", paymentStatus: "Completed", receivedAt: null },
      ]);
    const body = await (await call("/api/admin/overview", { apiKey })).json();
    expect(body).toMatchObject({ totalUsers: 2, revenueLast7Days: 15.75 });
  });

  it("puts the 7-day and year windows at their boundaries", async () => {
    const now = new Date("2026-01-03T12:00:00Z");
    await db()
      .insert(paypalTransactions)
      .values([
        {
          transactionId: "in7",
          amount: "1",
          paymentStatus: "Completed",
          receivedAt: new Date(now.getTime() - 7 * DAY),
        },
        {
          transactionId: "out7",
          amount: "2",
          paymentStatus: "Completed",
          receivedAt: new Date(now.getTime() - 7 * DAY - 1),
        },
        {
          transactionId: "lastYear",
          amount: "4",
          paymentStatus: "Completed",
          receivedAt: new Date("2025-12-31T23:59:59.999Z"),
        },
        {
          transactionId: "newYear",
          amount: "8",
          paymentStatus: "Completed",
          receivedAt: new Date("2026-01-01T00:00:00Z"),
        },
        { transactionId: "future", amount: "16", paymentStatus: "Completed", receivedAt: new Date(now.getTime() + 1) },
      ]);
    expect(await revenue(db(), now)).toEqual({ revenueLast7Days: 1 + 4 + 8, revenueCurrentYear: 8 });
  });
});
