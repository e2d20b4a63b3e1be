/**
 * @module A customer's payments, from the stored PayPal transactions linked to them: each with its status and the
 * billing period it paid for (null for a payment that paid for none: pending, refunded, not matching the plan).
 */
import { eq } from "drizzle-orm";
import type { PaymentHistoryItem } from "#contract/responses";
import type { Db } from "../db/client";
import { paypalTransactions } from "../db/schema";
import type { Page, PageParams } from "#contract/page";
import { amountValue, transactionsPage } from "./transactions";

/** The customer's payments, newest first, a page at a time. */
export async function paymentHistory(db: Db, userId: string, page: PageParams): Promise<Page<PaymentHistoryItem>> {
  return transactionsPage(db, eq(paypalTransactions.userId, userId), page, (t) => ({
    date: (t.receivedAt ?? t.createdAt).toISOString(),
    product: t.productName ?? "",
    amount: amountValue(t.amount) ?? 0,
    currency: t.currency ?? "USD",
    billingPeriod: { start: t.periodStart?.toISOString() ?? null, end: t.periodEnd?.toISOString() ?? null },
    status: t.paymentStatus,
    transactionId: t.transactionId,
  }));
}
