/**
 * @module PayPal subscriptions that paid us but that no stored subscription holds, as the admin sees them: each
 * with its latest completed payment and the account that payment is linked to (by payer email), if any. One that
 * has been stored since (by whatever path) or that the admin cancelled is not listed.
 */
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Page, PageParams } from "#contract/page";
import type { UnclaimedSubscription } from "#contract/responses";
import type { Db } from "../db/client";
import { paypalTransactions, subscriptions, unclaimedSubscriptions, users } from "../db/schema";
import { pageOf } from "./page";
import { amountValue } from "./transactions";

/** Records a completed payment of a subscription no account stores; a payment after a cancel shows it again. */
export async function noteUnclaimedPayment(
  db: Db,
  payment: { subscriptionId: string; transactionId: string; paidAt: Date },
) {
  await db
    .insert(unclaimedSubscriptions)
    .values({
      subscriptionId: payment.subscriptionId,
      lastTransactionId: payment.transactionId,
      lastPaymentAt: payment.paidAt,
    })
    .onConflictDoUpdate({
      target: unclaimedSubscriptions.subscriptionId,
      set: {
        lastTransactionId: sql`excluded.last_transaction_id`,
        lastPaymentAt: sql`excluded.last_payment_at`,
        cancelledAt: sql`case when ${unclaimedSubscriptions.cancelledAt} < excluded.last_payment_at then null
          else ${unclaimedSubscriptions.cancelledAt} end`,
      },
      setWhere: sql`excluded.last_payment_at >= ${unclaimedSubscriptions.lastPaymentAt}`,
    });
}

const open = and(
  isNull(unclaimedSubscriptions.cancelledAt),
  sql`not exists (select 1 from ${subscriptions}
    where ${subscriptions.subscriptionId} = ${unclaimedSubscriptions.subscriptionId})`,
);

function selectUnclaimed(db: Db) {
  return db
    .select({ u: unclaimedSubscriptions, t: paypalTransactions, accountEmail: users.email })
    .from(unclaimedSubscriptions)
    .innerJoin(paypalTransactions, eq(paypalTransactions.transactionId, unclaimedSubscriptions.lastTransactionId))
    .leftJoin(users, eq(users.id, paypalTransactions.userId));
}

type UnclaimedRow = Awaited<ReturnType<ReturnType<typeof selectUnclaimed>["all"]>>[number];

function toUnclaimed({ u, t, accountEmail }: UnclaimedRow): UnclaimedSubscription {
  return {
    subscriptionId: u.subscriptionId,
    lastPaymentAt: u.lastPaymentAt.toISOString(),
    transactionId: t.transactionId,
    payerEmail: t.payerEmail,
    productName: t.productName,
    amount: amountValue(t.amount) ?? t.amount,
    currency: t.currency,
    account: t.userId && accountEmail ? { id: t.userId, email: accountEmail } : null,
  };
}

/** The open ones, latest payment first, a page at a time. */
export async function unclaimedSubscriptionsPage(db: Db, page: PageParams): Promise<Page<UnclaimedSubscription>> {
  return pageOf(
    db,
    selectUnclaimed(db)
      .where(open)
      .orderBy(desc(unclaimedSubscriptions.lastPaymentAt), desc(unclaimedSubscriptions.subscriptionId))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(unclaimedSubscriptions).where(open),
    toUnclaimed,
  );
}

/** The open one with this PayPal subscription id, if any. */
export async function findUnclaimedSubscription(
  db: Db,
  subscriptionId: string,
): Promise<UnclaimedSubscription | undefined> {
  const [row] = await selectUnclaimed(db).where(and(eq(unclaimedSubscriptions.subscriptionId, subscriptionId), open));
  return row ? toUnclaimed(row) : undefined;
}

export async function markUnclaimedCancelled(db: Db, subscriptionId: string, at: Date) {
  await db
    .update(unclaimedSubscriptions)
    .set({ cancelledAt: at })
    .where(eq(unclaimedSubscriptions.subscriptionId, subscriptionId));
}

/** Forgets it once an account stores it. */
export async function removeUnclaimedSubscription(db: Db, subscriptionId: string) {
  await db.delete(unclaimedSubscriptions).where(eq(unclaimedSubscriptions.subscriptionId, subscriptionId));
}
