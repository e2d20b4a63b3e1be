/** @module A customer's payments, from the stored PayPal transactions linked to them. */
import { addMonths } from "date-fns";
import { desc, eq } from "drizzle-orm";
import type { PaymentHistoryItem } from "../contract/responses";
import type { Db } from "../db/client";
import { paypalTransactions } from "../db/schema";

const toNumber = (s: string | null) => (s !== null && Number.isFinite(Number(s)) ? Number(s) : 0);

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
      amount: toNumber(t.amount),
      currency: t.currency ?? "USD",
      // A payment pays the month that starts with it.
      billingPeriod: { start: paidAt.toISOString(), end: addMonths(paidAt, 1).toISOString() },
    };
  });
}
