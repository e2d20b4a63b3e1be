/**
 * @module Subscription ids PayPal charged that no stored subscription holds (the payments' `recurring_payment_id`),
 * and when the daily job last asked PayPal about each (billing/adopt-subscriptions.ts).
 */
import { and, eq, gte, inArray, lt, notExists, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { paypalTransactions, subscriptionLookups, subscriptions } from "../db/schema";

/**
 * The subscription ids of completed payments received since `since` that no stored subscription holds, and that
 * a payment reached after we last asked PayPal about them (or we never asked), the longest waiting first. Reads
 * only the window's payments (their `received_at` index), each with one look-up of the subscription and of the
 * last lookup: the unary `+` keeps SQLite from walking every payment of every subscription in the
 * `recurring_payment_id` index instead (it would, to group without sorting).
 */
export async function unstoredChargedSubscriptions(db: Db, since: Date, limit: number): Promise<string[]> {
  const lastArrival = sql<number>`max(${paypalTransactions.createdAt})`;
  const subscriptionId = sql`+${paypalTransactions.recurringPaymentId}`;
  const rows = await db
    .select({ subscriptionId: sql<string>`${paypalTransactions.recurringPaymentId}` })
    .from(paypalTransactions)
    .leftJoin(subscriptionLookups, eq(subscriptionLookups.subscriptionId, paypalTransactions.recurringPaymentId))
    .where(
      and(
        gte(paypalTransactions.receivedAt, since),
        sql`${subscriptionId} is not null`,
        sql`lower(${paypalTransactions.paymentStatus}) = 'completed'`,
        notExists(
          db
            .select({ one: sql`1` })
            .from(subscriptions)
            .where(eq(subscriptions.subscriptionId, paypalTransactions.recurringPaymentId)),
        ),
      ),
    )
    .groupBy(subscriptionId)
    .having(sql`${subscriptionLookups.checkedAt} is null or ${subscriptionLookups.checkedAt} < ${lastArrival}`)
    .orderBy(lastArrival)
    .limit(limit);
  return rows.map((r) => r.subscriptionId);
}

/** Notes that PayPal was asked about the subscription at `now`, and why it was not stored. */
export async function recordLookup(db: Db, subscriptionId: string, outcome: string, now: Date) {
  await db
    .insert(subscriptionLookups)
    .values({ subscriptionId, checkedAt: now, outcome })
    .onConflictDoUpdate({ target: subscriptionLookups.subscriptionId, set: { checkedAt: now, outcome } });
}

/** Forgets lookups older than `before` (their payments have left the window), at most `limit` of them. */
export async function purgeLookups(db: Db, before: Date, limit: number) {
  const old = db
    .select({ id: subscriptionLookups.subscriptionId })
    .from(subscriptionLookups)
    .where(lt(subscriptionLookups.checkedAt, before))
    .limit(limit);
  await db.delete(subscriptionLookups).where(inArray(subscriptionLookups.subscriptionId, old));
}
