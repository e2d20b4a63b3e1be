/** @module A customer's payments, from the stored PayPal transactions linked to them. */
import { addMonths } from "date-fns";
import { desc, eq } from "drizzle-orm";
import type { PaymentHistoryItem } from "../contract/responses";
import type { Db } from "../db/client";
import { paypalTransactions } from "../db/schema";
import { amountValue } from "./transactions";

export async function paymentHistory(db: Db, userId: string): Promise<PaymentHistoryItem[]> {
  const rows = await db
    .select()
    .from(paypalTransactions)
    .where(eq(paypalTransactions.userId, userId))
    .orderBy(desc(paypalTransactions.receivedAt), desc(paypalTransactions.id));
  return rows.map((t) => {
    const paidAt = t.receivedAt ?? t.createdAt;
    return {
      date: paidAt.toISOString(),
      product: t.productName ?? "",
      amount: amountValue(t.amount) ?? 0,
      currency: t.currency ?? "USD",
      // A payment pays the month that starts with it.
      billingPeriod: { start: paidAt.toISOString(), end: addMonths(paidAt, 1).toISOString() },
    };
  });
}
