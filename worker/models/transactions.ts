/** @module PayPal transactions as the lists show them. */
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Page, PageParams } from "#contract/page";
import type { Transaction, TransactionDetail, UpdateTransactionEmailResponse } from "#contract/responses";
import type { Db } from "../db/client";
import { containsText, trigramCandidates } from "../db/expressions";
import { paypalTransactions, subscriptions, users, type PayPalTransaction } from "../db/schema";
import { PAYPAL_TRANSACTIONS_SEARCH } from "../db/raw";
import { pageOf } from "./page";

type TransactionRow = PayPalTransaction;

/** A stored amount as a number, or null when it is not numeric. */
export function amountValue(amount: string | null): number | null {
  const n = Number(amount);
  return amount !== null && amount.trim() !== "" && Number.isFinite(n) ? n : null;
}

/** Whether the payment is linked to an account (by its subscription or its payer's email): never marked red. */
const isLinked = (t: TransactionRow) => t.userId !== null;

export function toTransaction(t: TransactionRow): Transaction {
  return {
    transactionId: t.transactionId,
    receivedAt: t.receivedAt?.toISOString() ?? null,
    recurringPaymentId: t.recurringPaymentId,
    payerEmail: t.payerEmail,
    payerFirstName: t.payerFirstName,
    payerLastName: t.payerLastName,
    payerId: t.payerId,
    payerStatus: t.payerStatus,
    productName: t.productName,
    productType: t.productType,
    amount: amountValue(t.amount) ?? t.amount,
    currency: t.currency,
    fee: t.fee,
    tax: t.tax,
    paymentStatus: t.paymentStatus,
    paymentType: t.paymentType,
    subscriptionType: t.subscriptionType,
    paymentCycle: t.paymentCycle,
    nextPaymentDate: t.nextPaymentDate,
    profileStatus: t.profileStatus,
    transactionType: t.transactionType,
    receiverEmail: t.receiverEmail,
    receiverId: t.receiverId,
    addressName: t.addressName,
    addressStreet: t.addressStreet,
    addressCity: t.addressCity,
    addressState: t.addressState,
    addressZip: t.addressZip,
    addressCountry: t.addressCountry,
    addressCountryCode: t.addressCountryCode,
    residenceCountry: t.residenceCountry,
    addressStatus: t.addressStatus,
    ipnTrackId: t.ipnTrackId,
    notifyVersion: t.notifyVersion,
    hasMatchingUser: isLinked(t),
  };
}

/** Stored transactions that `where` selects, newest first, a page at a time, each as `toRow` makes it. */
export function transactionsPage<T>(
  db: Db,
  where: SQL | undefined,
  page: PageParams,
  toRow: (transaction: TransactionRow) => T,
): Promise<Page<T>> {
  return pageOf(
    db,
    db
      .select()
      .from(paypalTransactions)
      .where(where)
      .orderBy(desc(paypalTransactions.receivedAt), desc(paypalTransactions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(paypalTransactions).where(where),
    toRow,
  );
}

/** The user's transactions, newest first, a page at a time: linked to them, or paid from their email address. */
export async function userTransactions(
  db: Db,
  userId: string,
  email: string,
  page: PageParams,
): Promise<Page<Transaction>> {
  // Payer emails are stored lowercased, so the index on them serves this match.
  const where = or(eq(paypalTransactions.userId, userId), eq(paypalTransactions.payerEmail, email.toLowerCase()));
  return transactionsPage(db, where, page, toTransaction);
}

export type NewTransaction = typeof paypalTransactions.$inferInsert;

/** Payment statuses PayPal moves on from for the same transaction id (e.g. Pending, then Completed). */
const OPEN_STATUSES = new Set(["pending", "created", "processed", "in-progress"]);

/** Columns a later notification of the same transaction updates: PayPal's own, never our links or corrections. */
function notificationColumns(values: NewTransaction) {
  const {
    userId: _userId,
    payerEmail: _payerEmail,
    productVersionId: _productVersionId,
    periodStart: _periodStart,
    periodEnd: _periodEnd,
    createdAt: _createdAt,
    ...paypalColumns
  } = values;
  return paypalColumns;
}

/**
 * Stores a transaction once per PayPal transaction id. A later notification of a transaction that was still open
 * (Pending, Created, Processed) updates it; any other repeat is already known and changes nothing.
 */
export async function upsertTransaction(db: Db, values: NewTransaction): Promise<"stored" | "updated" | "known"> {
  const inserted = await db
    .insert(paypalTransactions)
    .values(values)
    .onConflictDoNothing({ target: paypalTransactions.transactionId })
    .returning({ id: paypalTransactions.id });
  if (inserted.length > 0) return "stored";
  const status = (values.paymentStatus ?? "").toLowerCase();
  const updated = await db
    .update(paypalTransactions)
    .set(notificationColumns(values))
    .where(
      and(
        eq(paypalTransactions.transactionId, values.transactionId),
        inArray(sql`lower(${paypalTransactions.paymentStatus})`, [...OPEN_STATUSES]),
        sql`lower(${paypalTransactions.paymentStatus}) <> ${status}`,
      ),
    )
    .returning({ id: paypalTransactions.id });
  return updated.length > 0 ? "updated" : "known";
}

export async function findTransaction(db: Db, transactionId: string): Promise<TransactionRow | undefined> {
  return db.query.paypalTransactions.findFirst({ where: eq(paypalTransactions.transactionId, transactionId) });
}

/** Links a transaction to the customer (and plan) of its subscription, and records the period it paid for. */
export async function linkTransaction(
  db: Db,
  transactionId: string,
  link: { userId: string | null; productVersionId?: number | null; period?: { start: Date; end: Date } },
) {
  await db
    .update(paypalTransactions)
    .set({
      userId: link.userId,
      ...(link.productVersionId !== undefined ? { productVersionId: link.productVersionId } : {}),
      ...(link.period ? { periodStart: link.period.start, periodEnd: link.period.end } : {}),
    })
    .where(eq(paypalTransactions.transactionId, transactionId));
}

/** Completed payments of the subscription that have not counted yet (they arrived before it was stored). */
export async function uncountedPayments(db: Db, subscriptionId: string): Promise<TransactionRow[]> {
  return db.query.paypalTransactions.findMany({
    where: and(
      eq(paypalTransactions.recurringPaymentId, subscriptionId),
      isNull(paypalTransactions.periodEnd),
      isNull(paypalTransactions.parentTransactionId),
      sql`lower(${paypalTransactions.paymentStatus}) = 'completed'`,
    ),
    orderBy: [asc(paypalTransactions.receivedAt), asc(paypalTransactions.id)],
  });
}

/**
 * Links the subscription's transactions stored before the subscription was, so its customer sees them: those linked
 * to no one, and those linked only by their payer's email to an account that does not hold the subscription (the
 * subscription decides first, the payer's email only when no subscription is stored).
 */
export async function claimSubscriptionTransactions(db: Db, subscriptionId: string, userId: string) {
  const heldByTheirAccount = sql`exists (select 1 from ${subscriptions} where ${subscriptions.subscriptionId} =
    ${paypalTransactions.recurringPaymentId} and ${subscriptions.userId} = ${paypalTransactions.userId})`;
  await db
    .update(paypalTransactions)
    .set({ userId })
    .where(
      and(
        eq(paypalTransactions.recurringPaymentId, subscriptionId),
        or(isNull(paypalTransactions.userId), sql`not ${heldByTheirAccount}`),
      ),
    );
}

const refunds = alias(paypalTransactions, "refunds");
const fromRefunds = sql`${paypalTransactions} as ${sql.identifier("refunds")}`;

/**
 * Whether a payment was taken back: reversed (a chargeback) without a cancelled reversal, or refunded in full
 * (partial refunds add up). SQL over the payment's own refund and reversal rows.
 */
export const takenBack = (payment: typeof paypalTransactions) => sql`(
  (exists (select 1 from ${fromRefunds} where ${refunds.parentTransactionId} = ${payment.transactionId}
      and lower(${refunds.paymentStatus}) = 'reversed')
    and not exists (select 1 from ${fromRefunds} where ${refunds.parentTransactionId} = ${payment.transactionId}
      and lower(${refunds.paymentStatus}) = 'canceled_reversal'))
  or coalesce((select sum(-cast(${refunds.amount} as real)) from ${fromRefunds}
      where ${refunds.parentTransactionId} = ${payment.transactionId}
      and lower(${refunds.paymentStatus}) = 'refunded'), 0)
    >= max(coalesce(cast(${payment.amount} as real), 0), 0.01) - 0.005)`;

export async function isTakenBack(db: Db, transactionId: string): Promise<boolean> {
  const [row] = await db
    .select({ takenBack: sql<number>`${takenBack(paypalTransactions)}` })
    .from(paypalTransactions)
    .where(eq(paypalTransactions.transactionId, transactionId));
  return Boolean(row?.takenBack);
}

/** How far the subscription's counted payments cover, leaving out those taken back; null when none does. */
export async function paymentCoverage(db: Db, subscriptionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ until: sql<number | null>`max(${paypalTransactions.periodEnd})` })
    .from(paypalTransactions)
    .where(
      and(
        eq(paypalTransactions.recurringPaymentId, subscriptionId),
        isNotNull(paypalTransactions.periodEnd),
        sql`not ${takenBack(paypalTransactions)}`,
      ),
    );
  return row?.until ? new Date(row.until) : null;
}

/** When the subscription's latest completed payment we know of was made (taken back or not). */
export async function latestPaymentTime(db: Db, subscriptionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<number | null>`max(${paypalTransactions.receivedAt})` })
    .from(paypalTransactions)
    .where(
      and(
        eq(paypalTransactions.recurringPaymentId, subscriptionId),
        isNull(paypalTransactions.parentTransactionId),
        sql`lower(${paypalTransactions.paymentStatus}) = 'completed'`,
      ),
    );
  return row?.at ? new Date(row.at) : null;
}

export async function markProfileCancelled(db: Db, recurringPaymentId: string) {
  await db
    .update(paypalTransactions)
    .set({ profileStatus: "Cancelled" })
    .where(eq(paypalTransactions.recurringPaymentId, recurringPaymentId));
}

export interface TransactionFilters extends PageParams {
  startDate?: string;
  endDate?: string;
  status?: string;
  email?: string;
}

/**
 * Transactions filtered in SQL (received between the dates, status and payer email as case-insensitive parts),
 * newest first, a page at a time.
 */
export async function listTransactions(db: Db, f: TransactionFilters): Promise<Page<Transaction>> {
  const where = and(
    f.startDate ? gte(paypalTransactions.receivedAt, new Date(f.startDate)) : undefined,
    f.endDate ? lte(paypalTransactions.receivedAt, new Date(f.endDate)) : undefined,
    f.status ? containsText(paypalTransactions.paymentStatus, f.status) : undefined,
    f.email ? trigramCandidates(paypalTransactions.id, PAYPAL_TRANSACTIONS_SEARCH, f.email) : undefined,
    f.email ? containsText(paypalTransactions.payerEmail, f.email) : undefined,
  );
  return transactionsPage(db, where, f, toTransaction);
}

function toDetail(t: TransactionRow): TransactionDetail {
  const raw = (t.rawPayload ? JSON.parse(t.rawPayload) : {}) as Record<string, string | undefined>;
  const extra = (key: string) => raw[key] ?? null;
  return {
    transactionId: t.transactionId,
    hasMatchingUser: isLinked(t),
    receivedAt: t.receivedAt?.toISOString() ?? null,
    payerInfo: {
      email: t.payerEmail,
      originalEmail: t.originalEmail,
      firstName: t.payerFirstName,
      lastName: t.payerLastName,
      payerId: t.payerId,
      payerStatus: t.payerStatus,
    },
    productInfo: { productName: t.productName, productType: t.productType },
    paymentDetails: {
      amount: amountValue(t.amount) ?? t.amount,
      currency: t.currency,
      tax: t.tax,
      fee: t.fee,
      paymentType: t.paymentType,
      paymentStatus: t.paymentStatus,
      outstandingBalance: extra("outstanding_balance"),
      shipping: extra("shipping"),
    },
    subscriptionData: {
      subscriptionType: t.subscriptionType,
      paymentCycle: t.paymentCycle,
      amountPerCycle: extra("amount_per_cycle"),
      initialPaymentAmount: extra("initial_payment_amount"),
      profileStatus: t.profileStatus,
      nextPaymentDate: t.nextPaymentDate,
      transactionId: t.transactionId,
      recurringPaymentId: t.recurringPaymentId,
      transactionType: t.transactionType,
    },
    merchantInfo: { email: t.receiverEmail, businessEmail: extra("business"), receiverId: t.receiverId },
    payerAddress: {
      name: t.addressName,
      street: t.addressStreet,
      city: t.addressCity,
      state: t.addressState,
      postalCode: t.addressZip,
      country: t.addressCountry,
      countryCode: t.addressCountryCode,
      residenceCountry: t.residenceCountry,
      addressStatus: t.addressStatus,
    },
    additionalInfo: {
      transactionSubject: extra("transaction_subject"),
      timeCreated: extra("time_created"),
      verifySign: t.verifySign,
      ipnTrackId: t.ipnTrackId,
      notifyVersion: t.notifyVersion,
    },
  };
}

export async function getTransactionDetail(db: Db, transactionId: string): Promise<TransactionDetail | null> {
  const row = await findTransaction(db, transactionId);
  return row ? toDetail(row) : null;
}

/**
 * Corrects a transaction's payer email. The payment stays with the account that holds its stored subscription
 * (whatever the email says); one that no stored subscription owns goes to the account with the corrected email,
 * or to none. Answers the detail and whom it is linked to, or null for no such id.
 */
export async function updatePayerEmail(
  db: Db,
  transactionId: string,
  email: string,
): Promise<{ detail: TransactionDetail; linked: UpdateTransactionEmailResponse["linked"] } | null> {
  const normalized = email.toLowerCase();
  const [transaction] = await db
    .select({ subscriptionId: paypalTransactions.recurringPaymentId })
    .from(paypalTransactions)
    .where(eq(paypalTransactions.transactionId, transactionId));
  if (!transaction) return null;
  const subscriber = transaction.subscriptionId
    ? await db
        .select({ id: users.id, email: users.email })
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(eq(subscriptions.subscriptionId, transaction.subscriptionId))
        .then((rows) => rows[0])
    : undefined;
  const owner = subscriber ?? (await db.query.users.findFirst({ where: eq(users.email, normalized) }));
  await db
    .update(paypalTransactions)
    .set({ payerEmail: normalized, userId: owner?.id ?? null })
    .where(eq(paypalTransactions.transactionId, transactionId));
  const detail = (await getTransactionDetail(db, transactionId))!;
  return {
    detail,
    linked: owner ? { email: owner.email, by: subscriber ? "subscription" : "email" } : null,
  };
}
