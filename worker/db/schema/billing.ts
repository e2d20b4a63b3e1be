/** @module Billing: PayPal subscriptions and payments, and each customer's period resets. */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { productVersions, userRef, users } from "./accounts";

export const billingPeriodResets = sqliteTable(
  "billing_period_resets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    resetDate: integer("reset_date", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("billing_period_resets_user_date_idx").on(t.userId, t.resetDate)],
);

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    subscriptionId: text("subscription_id").notNull().unique(),
    /** PayPal's plan id, as PayPal confirmed it. */
    planId: text("plan_id"),
    /** The product version whose plan id it is: the plan this subscription pays for. */
    productVersionId: integer("product_version_id").references(() => productVersions.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
    /** pending (approved, not yet paid), active, suspended, cancelled or expired: PayPal's status, lowercase. */
    status: text("status", { enum: ["pending", "active", "suspended", "cancelled", "expired"] })
      .notNull()
      .default("active"),
    /** The end of the period its verified payments (or PayPal's confirmation of one) cover. */
    paidThrough: integer("paid_through", { mode: "timestamp_ms" }),
    /** The subscription that replaced it (a plan change): it must be cancelled at PayPal and covers nothing. */
    replacedBy: text("replaced_by"),
    /** When the daily job last asked PayPal about it. */
    checkedAt: integer("checked_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("subscriptions_user_idx").on(t.userId), index("subscriptions_status_idx").on(t.status, t.checkedAt)],
);

/**
 * Subscription ids PayPal charged that no stored subscription holds, as the daily job last asked PayPal about them
 * (billing/adopt-subscriptions.ts): asked again only after a later payment arrives.
 */
export const subscriptionLookups = sqliteTable("subscription_lookups", {
  subscriptionId: text("subscription_id").primaryKey(),
  checkedAt: integer("checked_at", { mode: "timestamp_ms" }).notNull(),
  /** Why it was not stored, in the log's words. */
  outcome: text("outcome").notNull(),
});

/** PayPal's notifications of payments, one per `txn_id`; payer emails are searched through FTS5 (db/raw.ts). */
export const paypalTransactions = sqliteTable(
  "paypal_transactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Kept when the user is deleted: a payment is a financial record. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    payerEmail: text("payer_email"),
    originalEmail: text("original_email"),
    emailCopy: text("email_copy"),
    payerFirstName: text("payer_first_name"),
    payerLastName: text("payer_last_name"),
    payerId: text("payer_id"),
    payerStatus: text("payer_status"),
    productVersionId: integer("product_version_id").references(() => productVersions.id, { onDelete: "set null" }),
    productName: text("product_name"),
    productType: text("product_type"),
    amount: text("amount"),
    currency: text("currency"),
    fee: text("fee"),
    tax: text("tax"),
    transactionId: text("transaction_id").notNull().unique(),
    recurringPaymentId: text("recurring_payment_id"),
    transactionType: text("transaction_type"),
    paymentStatus: text("payment_status"),
    paymentType: text("payment_type"),
    addressName: text("address_name"),
    addressStreet: text("address_street"),
    addressCity: text("address_city"),
    addressState: text("address_state"),
    addressZip: text("address_zip"),
    addressCountry: text("address_country"),
    addressCountryCode: text("address_country_code"),
    residenceCountry: text("residence_country"),
    addressStatus: text("address_status"),
    subscriptionType: text("subscription_type"),
    paymentCycle: text("payment_cycle"),
    nextPaymentDate: text("next_payment_date"),
    profileStatus: text("profile_status"),
    receiverEmail: text("receiver_email"),
    receiverId: text("receiver_id"),
    ipnTrackId: text("ipn_track_id"),
    notifyVersion: text("notify_version"),
    verifySign: text("verify_sign"),
    /** The whole notification as received, for the detail screen's further fields. */
    rawPayload: text("raw_payload"),
    /** For a refund or reversal: the payment it takes back (PayPal's `parent_txn_id`). */
    parentTransactionId: text("parent_transaction_id"),
    /** For a verified subscription payment that counted: the billing period it paid for. */
    periodStart: integer("period_start", { mode: "timestamp_ms" }),
    periodEnd: integer("period_end", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("paypal_transactions_user_idx").on(t.userId),
    index("paypal_transactions_payer_idx").on(t.payerEmail),
    index("paypal_transactions_received_idx").on(t.receivedAt),
    index("paypal_transactions_recurring_idx").on(t.recurringPaymentId),
    index("paypal_transactions_parent_idx").on(t.parentTransactionId),
  ],
);

/**
 * PayPal subscriptions that paid us but that no stored subscription holds (storing failed after the buyer's
 * approval, or it was bought elsewhere): one row per PayPal subscription id, for the admin to link or cancel.
 * A row whose subscription has been stored since is no longer shown (models/unclaimed-subscriptions.ts).
 */
export const unclaimedSubscriptions = sqliteTable(
  "unclaimed_subscriptions",
  {
    subscriptionId: text("subscription_id").primaryKey(),
    /** Its latest completed payment (a paypal_transactions.transaction_id): payer, account, amount. */
    lastTransactionId: text("last_transaction_id").notNull(),
    lastPaymentAt: integer("last_payment_at", { mode: "timestamp_ms" }).notNull(),
    /** When the admin cancelled it at PayPal; a payment made later shows it again. */
    cancelledAt: integer("cancelled_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("unclaimed_subscriptions_open_idx").on(t.cancelledAt, t.lastPaymentAt)],
);

export type Subscription = typeof subscriptions.$inferSelect;

export type PayPalTransaction = typeof paypalTransactions.$inferSelect;
