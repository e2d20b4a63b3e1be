/**
 * @module A customer's payments, from the stored PayPal transactions linked to them: each with its status and the
 * billing period it paid for (null for a payment that paid for none: pending, refunded, not matching the plan).
 */
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
  return rows.map((t) => ({
    date: (t.receivedAt ?? t.createdAt).toISOString(),
    product: t.productName ?? "",
    amount: amountValue(t.amount) ?? 0,
    currency: t.currency ?? "USD",
    billingPeriod: { start: t.periodStart?.toISOString() ?? null, end: t.periodEnd?.toISOString() ?? null },
    status: t.paymentStatus,
    transactionId: t.transactionId,
  }));
}
