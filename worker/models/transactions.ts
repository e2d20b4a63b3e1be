/** @module PayPal transactions as the lists show them. */
import { and, desc, eq, gte, lte, or, sql } from "drizzle-orm";
import type { Transaction, TransactionDetail } from "../contract/responses";
import type { Db } from "../db/client";
import { containsText } from "../db/expressions";
import { paypalTransactions, users } from "../db/schema";

type TransactionRow = typeof paypalTransactions.$inferSelect;

/** A stored amount as a number, or null when it is not numeric. */
export function amountValue(amount: string | null): number | null {
  const n = Number(amount);
  return amount !== null && amount.trim() !== "" && Number.isFinite(n) ? n : null;
}

export function toTransaction(t: TransactionRow, hasMatchingUser: boolean): Transaction {
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
    hasMatchingUser,
  };
}

/** The user's transactions: linked to them, or paid from their email address. */
export async function userTransactions(db: Db, userId: string, email: string): Promise<Transaction[]> {
  const rows = await db
    .select()
    .from(paypalTransactions)
    .where(or(eq(paypalTransactions.userId, userId), eq(sql`lower(${paypalTransactions.payerEmail})`, email)))
    .orderBy(desc(paypalTransactions.receivedAt), desc(paypalTransactions.id));
  return rows.map((t) => toTransaction(t, true));
}

export type NewTransaction = typeof paypalTransactions.$inferInsert;

/** Stores a transaction once per PayPal transaction id; false when it was stored before. */
export async function insertTransaction(db: Db, values: NewTransaction): Promise<boolean> {
  const inserted = await db
    .insert(paypalTransactions)
    .values(values)
    .onConflictDoNothing({ target: paypalTransactions.transactionId })
    .returning({ id: paypalTransactions.id });
  return inserted.length > 0;
}

export async function markProfileCancelled(db: Db, recurringPaymentId: string) {
  await db
    .update(paypalTransactions)
    .set({ profileStatus: "Cancelled" })
    .where(eq(paypalTransactions.recurringPaymentId, recurringPaymentId));
}

const payerMatches = sql`exists (select 1 from ${users} where ${users.email} = lower(${paypalTransactions.payerEmail}))`;

export interface TransactionFilters {
  startDate?: string;
  endDate?: string;
  status?: string;
  email?: string;
}

/** Transactions filtered in SQL: received between the dates, status and payer email as case-insensitive parts. */
export async function listTransactions(db: Db, f: TransactionFilters): Promise<Transaction[]> {
  const rows = await db
    .select({ t: paypalTransactions, matches: sql<number>`${payerMatches}` })
    .from(paypalTransactions)
    .where(
      and(
        f.startDate ? gte(paypalTransactions.receivedAt, new Date(f.startDate)) : undefined,
        f.endDate ? lte(paypalTransactions.receivedAt, new Date(f.endDate)) : undefined,
        f.status ? containsText(paypalTransactions.paymentStatus, f.status) : undefined,
        f.email ? containsText(paypalTransactions.payerEmail, f.email) : undefined,
      ),
    )
    .orderBy(desc(paypalTransactions.receivedAt), desc(paypalTransactions.id));
  return rows.map((r) => toTransaction(r.t, Boolean(r.matches)));
}

async function findByTransactionId(db: Db, transactionId: string) {
  const [row] = await db
    .select({ t: paypalTransactions, matches: sql<number>`${payerMatches}` })
    .from(paypalTransactions)
    .where(eq(paypalTransactions.transactionId, transactionId));
  return row;
}

function toDetail(t: TransactionRow, hasMatchingUser: boolean): TransactionDetail {
  const raw = (t.rawPayload ? JSON.parse(t.rawPayload) : {}) as Record<string, string | undefined>;
  const extra = (key: string) => raw[key] ?? null;
  return {
    transactionId: t.transactionId,
    hasMatchingUser,
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
  const row = await findByTransactionId(db, transactionId);
  return row ? toDetail(row.t, Boolean(row.matches)) : null;
}

/** Sets the payer email and links the transaction to the account with that email (if any); null if no such id. */
export async function updatePayerEmail(
  db: Db,
  transactionId: string,
  email: string,
): Promise<TransactionDetail | null> {
  const normalized = email.toLowerCase();
  const owner = await db.query.users.findFirst({ where: eq(users.email, normalized) });
  const updated = await db
    .update(paypalTransactions)
    .set({ payerEmail: normalized, userId: owner?.id ?? null })
    .where(eq(paypalTransactions.transactionId, transactionId))
    .returning({ id: paypalTransactions.id });
  return updated.length ? getTransactionDetail(db, transactionId) : null;
}
