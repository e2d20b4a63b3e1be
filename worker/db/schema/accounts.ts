/** @module Accounts: customers and admins, their plans (product versions), keys, codes, tokens, sign-in attempts and the audit log. */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { AUDIT_ACTIONS } from "#contract/schemas";
import { createdAt } from "./columns";

export const userRef = () =>
  text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

export const productVersions = sqliteTable(
  "product_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description"),
    eventsLimit: integer("events_limit"),
    websitesLimit: integer("websites_limit"),
    dynamicContentLimit: integer("dynamic_content_limit"),
    paypalPlanId: text("paypal_plan_id"),
    /** decimal(10,2) kept exactly as integer cents. */
    priceCents: integer("price_cents"),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  // At most one default version; a PayPal plan id belongs to one version (a buyer gets the plan they paid for).
  (t) => [
    uniqueIndex("product_versions_single_default_idx")
      .on(t.isDefault)
      .where(sql`${t.isDefault} = 1`),
    uniqueIndex("product_versions_paypal_plan_idx").on(t.paypalPlanId),
  ],
);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    productVersionId: integer("product_version_id").references(() => productVersions.id, {
      onDelete: "set null",
    }),
    createdAt: createdAt(),
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    billingPeriodStart: integer("billing_period_start", { mode: "timestamp_ms" }),
    billingPeriodEnd: integer("billing_period_end", { mode: "timestamp_ms" }),
    /** PBKDF2-SHA256 hash, admins only: `pbkdf2$iterations$salt$hash`. */
    passwordHash: text("password_hash"),
    /** Admin override of delivery requests per billing period; null = unlimited. */
    requestLimit: integer("request_limit"),
    /**
     * Admin overrides of the plan's websites and dynamic-content limits (SPEC.md §5's `uniqueUrlLimit`,
     * `dynamicContentLimit`); null = the plan's limit applies, 0 = unlimited (read as a plan's limit is).
     */
    websitesLimit: integer("websites_limit"),
    dynamicContentLimit: integer("dynamic_content_limit"),
    /**
     * Where the plan came from: the default plan, an admin's choice (never taken away by billing), or a PayPal
     * subscription (held while a verified payment covers it, see billing/entitlement.ts).
     */
    planSource: text("plan_source", { enum: ["default", "admin", "paypal"] })
      .notNull()
      .default("default"),
    /** For a PayPal plan: the end of the period its latest verified payment covers. */
    planPaidThrough: integer("plan_paid_through", { mode: "timestamp_ms" }),
    /**
     * Whether the delivery store (KV) holds an entry for every published URL of this customer, so that a URL
     * without an entry has no mapping and costs no D1 read (worker/delivery/store.ts). False for customers whose
     * mappings predate the store until `npm run delivery:rebuild` has written them, and while a rebuild runs.
     */
    deliveryStoreComplete: integer("delivery_store_complete", { mode: "boolean" }).notNull().default(true),
    /**
     * When the customer's URL entries in the delivery store last changed (epoch ms, strictly increasing; 0: not since
     * this column exists). Their state carries it, and the hot path caches URL entries under it (delivery/store.ts).
     */
    contentVersion: integer("content_version").notNull().default(0),
    /** The customer's own tracking parameters, ignored in URLs besides the usual ones (docs/url-rules.md). */
    ignoredParameters: text("ignored_parameters", { mode: "json" }).$type<string[]>().notNull().default([]),
  },
  (t) => [
    index("users_product_version_idx").on(t.productVersionId),
    // The admin's users list, newest first.
    index("users_created_idx").on(t.createdAt, t.id),
    // The billing sweeper's two questions: whose period has ended, whose paid plan has lapsed.
    index("users_billing_period_end_idx").on(t.billingPeriodEnd),
    index("users_plan_paid_through_idx").on(t.planSource, t.planPaidThrough),
  ],
);

/**
 * API keys. A customer has one `customer` key (shown on their dashboard, rotated or revoked as a whole); an admin
 * gets an `admin` key per password login, valid for a few hours; an `impersonation` key lets an admin act as a
 * customer for an hour and names the admin who asked for it.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** SHA-256 of the key: what a request's X-API-Key is looked up by. */
    keyHash: text("key_hash").notNull().unique(),
    /** The key itself, AES-GCM encrypted with APP_SECRET, so the dashboards can show it. */
    keyEncrypted: text("key_encrypted").notNull(),
    userId: userRef(),
    kind: text("kind", { enum: ["customer", "admin", "impersonation"] })
      .notNull()
      .default("customer"),
    /** The admin acting as this key's user (impersonation keys only). */
    impersonatorId: text("impersonator_id").references(() => users.id, { onDelete: "cascade" }),
    /** Null: valid until rotated or revoked. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("api_keys_user_idx").on(t.userId, t.kind),
    index("api_keys_expiry_idx").on(t.expiresAt),
    // A customer has one key: two first uses at once cannot issue two (models/api-keys.ts `ensureCustomerKey`).
    uniqueIndex("api_keys_one_customer_key_idx")
      .on(t.userId)
      .where(sql`${t.kind} = 'customer'`),
  ],
);

/**
 * What admins did to accounts that the console must be able to show later: impersonations and key
 * revocations. Emails are copied so that the record outlives the accounts.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorEmail: text("actor_email").notNull(),
    targetId: text("target_id").references(() => users.id, { onDelete: "set null" }),
    targetEmail: text("target_email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("audit_events_created_idx").on(t.createdAt), index("audit_events_target_idx").on(t.targetId)],
);

export const verificationTokens = sqliteTable(
  "verification_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** SHA-256 of the token sent by email. */
    token: text("token").notNull().unique(),
    userId: userRef(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("verification_tokens_user_idx").on(t.userId), index("verification_tokens_expiry_idx").on(t.expiresAt)],
);

export const loginOtpCodes = sqliteTable(
  "login_otp_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    /** HMAC of the 5-digit code (keyed with APP_SECRET and the user id): never the code itself. */
    code: text("code").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    used: integer("used", { mode: "boolean" }).notNull().default(false),
    /** Tries made against this code; the code is dead after the fifth. */
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("login_otp_codes_user_idx").on(t.userId), index("login_otp_codes_expiry_idx").on(t.expiresAt)],
);

export const loginAttempts = sqliteTable(
  "login_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    success: integer("success", { mode: "boolean" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_attempts_user_idx").on(t.userId, t.createdAt),
    index("login_attempts_ip_idx").on(t.ipAddress, t.createdAt),
  ],
);

/**
 * One row per counted action, by bucket (`<action>:email:<address>`, `<action>:ip:<address>`): the sliding
 * windows of worker/models/rate-limits.ts.
 */
export const rateLimitEvents = sqliteTable(
  "rate_limit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bucket: text("bucket").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("rate_limit_events_bucket_idx").on(t.bucket, t.createdAt)],
);

export type User = typeof users.$inferSelect;

export type PlanSource = User["planSource"];

export type ProductVersion = typeof productVersions.$inferSelect;

export type ApiKeyKind = (typeof apiKeys.$inferSelect)["kind"];
