/**
 * @module The D1 schema: every table of SPEC.md §3, plus the columns and tables the design adds
 * (admin password hashes, encrypted API keys, stored SMTP configuration, analytics counters).
 * Timestamps are integer milliseconds since the epoch. Deleting a user cascades to every row of theirs.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { StoredExperiment } from "#contract/experiments";
import type { Placement } from "#contract/placement";
import type { MailKind } from "#contract/responses";
import { AUDIT_ACTIONS } from "#contract/schemas";
import type { Seo } from "#contract/seo";
import type { VersionAuthor } from "#contract/versions";

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

const userRef = () =>
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

export const billingPeriodResets = sqliteTable(
  "billing_period_resets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    resetDate: integer("reset_date", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("billing_period_resets_user_date_idx").on(t.userId, t.resetDate)],
);

/** What a mapping delivers, where and when, and who changed it last: a mapping's columns, and each version's. */
const mappingState = () => ({
  htmlContent: text("html_content").notNull(),
  /** Where the content goes (contract/placement.ts); null: the top of <body>. */
  placement: text("placement", { mode: "json" }).$type<Placement>(),
  /** What the mapping sets in the page's <head> (contract/seo.ts); null: nothing. */
  seo: text("seo", { mode: "json" }).$type<Seo>(),
  publishedAt: integer("published_at", { mode: "timestamp_ms" }),
  /** When the minute cron publishes this draft (delivery/publish-due.ts); null: not scheduled. */
  publishAt: integer("publish_at", { mode: "timestamp_ms" }),
  /** When the minute cron unpublishes it; null: not scheduled. */
  unpublishAt: integer("unpublish_at", { mode: "timestamp_ms" }),
  /** Who made the last change (contract/versions.ts `VersionAuthor`): the history's "who", copied by its trigger. */
  changedBy: text("changed_by").$type<VersionAuthor>(),
  /**
   * The experiment the mapping runs (docs/experiments.md): its id, variants (the first the control, whose HTML is
   * `html_content`) and goals; null: none. Part of the mapping's state, so drafts, schedules and versions carry it.
   */
  experiment: text("experiment", { mode: "json" }).$type<StoredExperiment>(),
});

/**
 * A customer's page URL and the HTML delivered there. Its triggers (db/raw.ts) keep `mapping_totals`, the FTS5
 * search, `mapping_versions` and the webhook outbox in step, in the same transaction as every change.
 */
export const urlMappings = sqliteTable(
  "url_mappings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    url: text("url").notNull(),
    /** The URL as SPEC.md §2 normalises it: what delivery matches and the dashboards group by. */
    normalizedUrl: text("normalized_url").notNull(),
    ...mappingState(),
    userId: userRef(),
    createdAt: createdAt(),
    /**
     * What the mapping's preview links are signed for (delivery/preview.ts): made with the first link, cleared when
     * the customer revokes them. A mapping deleted and restored comes back without it, so older links stay dead.
     */
    previewKey: text("preview_key"),
    /**
     * The URL ignoring case, surrounding spaces and the http(s):// prefix: what the admin's Websites & Events tab
     * groups by. Computed by SQLite (never written), indexed with the customer.
     */
    groupUrl: text("group_url").generatedAlwaysAs(
      sql`(case
        when lower(trim(url)) like 'https://%' then substr(lower(trim(url)), 9)
        when lower(trim(url)) like 'http://%' then substr(lower(trim(url)), 8)
        else lower(trim(url)) end)`,
      { mode: "virtual" },
    ),
    /** The website of the normalised URL, everything before its first slash (models/usage.ts `hostOf`). */
    host: text("host").generatedAlwaysAs(
      sql`(case when instr(normalized_url, '/') > 0
        then substr(normalized_url, 1, instr(normalized_url, '/') - 1) else normalized_url end)`,
      { mode: "virtual" },
    ),
    /**
     * For a prefix mapping (a normalised URL ending in `/*`, docs/url-rules.md) the number of levels it names
     * (`shop.example/blog/*` is 2); null for an exact one. Computed by SQLite, indexed with the customer.
     */
    /**
     * The running experiment's id and goals (JSON array), copied from `experiment` by triggers (db/raw.ts) when it is
     * written, so that statements over many customers (the fold, limits) never parse a customer's JSON; null without
     * an experiment, or for one SQLite cannot read (stored before its nesting was capped: docs/decisions.md, Issue 38).
     */
    experimentId: text("experiment_id"),
    experimentGoals: text("experiment_goals"),
    prefixDepth: integer("prefix_depth").generatedAlwaysAs(
      sql`(case when normalized_url like '%/*'
        then length(normalized_url) - length(replace(normalized_url, '/', '')) end)`,
      { mode: "virtual" },
    ),
  },
  (t) => [
    index("url_mappings_user_idx").on(t.userId, t.normalizedUrl),
    // The depths of a customer's published prefixes (their delivery state), from the index alone.
    index("url_mappings_prefix_idx")
      .on(t.userId, t.prefixDepth)
      .where(sql`${t.prefixDepth} is not null and ${t.publishedAt} is not null`),
    // A customer's websites (plan limits, usage), read from the index alone.
    index("url_mappings_host_idx").on(t.userId, t.host),
    // A customer's mappings that run experiments: the goals their delivery state accepts.
    index("url_mappings_experiment_idx")
      .on(t.userId)
      .where(sql`${t.experiment} is not null`),
    // The admin's Websites & Events tab: a customer's groups, and the newest mapping of one.
    index("url_mappings_group_idx").on(t.userId, t.groupUrl, t.createdAt),
    index("url_mappings_created_idx").on(t.userId, t.createdAt),
    // The minute cron's due schedules, earliest first, from small partial indexes.
    index("url_mappings_publish_at_idx")
      .on(t.publishAt)
      .where(sql`${t.publishAt} is not null`),
    index("url_mappings_unpublish_at_idx")
      .on(t.unpublishAt)
      .where(sql`${t.unpublishAt} is not null`),
    // The admin's Event-Verwaltung: every customer's mappings, newest first.
    index("url_mappings_recent_idx").on(t.createdAt, t.id),
    // What delivery asks when one URL changes: the newest published mapping of (customer, URL), one index probe.
    index("url_mappings_delivery_idx")
      .on(t.userId, t.normalizedUrl, t.createdAt)
      .where(sql`${t.publishedAt} is not null`),
  ],
);

/**
 * Every state a mapping has had (docs/history.md): written by triggers on url_mappings (db/raw.ts), so no
 * path that changes a mapping can skip it; the newest 50 per mapping are kept.
 */
export const mappingVersions = sqliteTable(
  "mapping_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    mappingId: integer("mapping_id")
      .notNull()
      .references(() => urlMappings.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    ...mappingState(),
    url: text("url").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    /** The mapping's customer, whose history budget the version counts in (docs/history.md). */
    userId: text("user_id").notNull().default(""),
    /** What the version stores, in bytes (db/raw.ts `VERSION_BYTES`), counted in `mapping_totals.history_bytes`. */
    bytes: integer("bytes").notNull().default(0),
    /** A newer version of the mapping exists: only such versions are pruned past the history budget. */
    superseded: integer("superseded", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("mapping_versions_mapping_version_idx").on(t.mappingId, t.version),
    // The customer's oldest prunable versions, read in order by the budget's prune (db/raw.ts).
    index("mapping_versions_prunable_idx")
      .on(t.userId, t.id)
      .where(sql`${t.superseded} = 1`),
  ],
);

/**
 * A mapping its customer deleted, kept 30 days so that it can be restored with its id (docs/history.md); the daily
 * cron removes older ones.
 */
export const deletedMappings = sqliteTable(
  "deleted_mappings",
  {
    /** The mapping's own id: ids are never reused (AUTOINCREMENT), so a restore puts it back as it was. */
    id: integer("id").primaryKey(),
    userId: userRef(),
    url: text("url").notNull(),
    normalizedUrl: text("normalized_url").notNull(),
    ...mappingState(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("deleted_mappings_user_idx").on(t.userId, t.deletedAt),
    index("deleted_mappings_deleted_idx").on(t.deletedAt),
    // The period's events count deleted mappings too (models/usage.ts): a range of the customer's creations.
    index("deleted_mappings_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * A customer's webhook (docs/webhooks.md): a URL that receives an HMAC-SHA256-signed event when one of their
 * mappings is published, unpublished, changed or deleted. The signing secret is sealed under APP_SECRET
 * (lib/crypto.ts): it is needed again for every signature.
 */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    userId: userRef(),
    url: text("url").notNull(),
    secretEncrypted: text("secret_encrypted").notNull(),
    /** Attempts that failed since the last delivered one: past FAILING_TARGET_ATTEMPTS, a failure is not retried. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /**
     * Its delivered and failed deliveries in the log, kept by triggers (db/raw.ts), which remove the oldest past
     * `FINISHED_DELIVERIES_KEPT` (docs/webhooks.md).
     */
    finishedDeliveries: integer("finished_deliveries").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("webhooks_user_idx").on(t.userId, t.createdAt)],
);

/** What a mapping's webhook event records of the mapping (epoch milliseconds for times). */
export interface MappingEventFacts {
  id: number;
  url: string;
  publishedAt: number | null;
  publishAt: number | null;
  unpublishAt: number | null;
  changedBy: string | null;
}

/**
 * The outbox and delivery log of webhook events: one row per event and webhook, written by triggers on
 * url_mappings (db/raw.ts) in the same transaction as the change, sent and retried until delivered or given up.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** The event's id, the same for every webhook it goes to: receivers drop a repeat by it. */
    eventId: text("event_id").notNull(),
    /** A `WebhookEvent` (contract/webhooks.ts) of a mapping or its experiment. */
    event: text("event").notNull(),
    /**
     * What a mapping event says, as its trigger recorded it (db/raw.ts): the mapping's id, URL, publication times
     * and author at the change. webhooks/payload.ts renders the body from it.
     */
    facts: text("facts", { mode: "json" }).$type<MappingEventFacts>(),
    /** The JSON body sent, as stored: a `ping`'s, and mapping events written before their facts were kept. */
    payload: text("payload"),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due; null once delivered or given up. */
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    /** The HTTP status of the last attempt, if an answer came. */
    responseStatus: integer("response_status"),
    /** Why the last attempt failed, short. */
    error: text("error"),
    createdAt: createdAt(),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.id),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.nextAttemptAt} is not null`),
    index("webhook_deliveries_created_idx").on(t.createdAt),
    // A webhook's oldest finished deliveries, which its log bound removes, without walking its pending ones.
    index("webhook_deliveries_finished_idx")
      .on(t.webhookId, t.id)
      .where(sql`${t.status} <> 'pending'`),
  ],
);

/**
 * A customer's claim of a website as a delivery target: its hostname (as SPEC.md counts websites: lowercase,
 * without `www.`), the origin that serves it, and how its content is delivered: by the snippet in the visitor's
 * browser, or at the edge, by the Worker as a proxy in front of the origin (delivery/edge-proxy.ts). A claim is
 * `pending` until its owner proves the hostname with a DNS TXT record holding `verification_token`
 * (docs/edge-delivery.md); only an `active` claim is served. Several customers may claim a hostname; whoever
 * proves it holds it, so at most one claim per hostname is active; a later proof by another account takes the
 * hostname over. Pending claims expire 7 days after they were made; active ones are checked again daily and end
 * after failed checks (models/websites.ts). A trigger (db/raw.ts) queues a deleted claim's custom hostnames for
 * removal.
 */
export const websites = sqliteTable(
  "websites",
  {
    hostname: text("hostname").notNull(),
    userId: userRef(),
    origin: text("origin").notNull(),
    mode: text("mode", { enum: ["snippet", "edge"] }).notNull(),
    status: text("status", { enum: ["pending", "active"] })
      .notNull()
      .default("pending"),
    verificationToken: text("verification_token").notNull(),
    verifiedAt: integer("verified_at", { mode: "timestamp_ms" }),
    /**
     * The last DNS check, and why it did not prove the hostname (null: not checked yet, or proven). A pending claim
     * is checked until proven; an active one again every day (websites/recheck-websites.ts).
     */
    checkedAt: integer("checked_at", { mode: "timestamp_ms" }),
    checkProblem: text("check_problem"),
    /** An active claim's DNS checks that failed in a row: at `LAPSE_AFTER_FAILED_CHECKS` the claim ends. */
    failedChecks: integer("failed_checks").notNull().default(0),
    /** The Cloudflare for SaaS custom hostnames registered for an active claim (delivery/custom-hostnames.ts). */
    customHostnameIds: text("custom_hostname_ids", { mode: "json" }).$type<string[]>(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hostname, t.userId] }),
    uniqueIndex("websites_active_hostname_idx")
      .on(t.hostname)
      .where(sql`${t.status} = 'active'`),
    index("websites_user_idx").on(t.userId, t.hostname),
    // The DNS checks due, per status (websites/check-queue): the minute cron's range scans.
    index("websites_check_idx").on(t.status, t.checkedAt),
  ],
);

/**
 * Cloudflare for SaaS custom hostnames to delete at Cloudflare: written with the release of a claim or the deletion
 * of its customer (in the same batch), removed once Cloudflare confirms, so that none is left behind when a call
 * fails (delivery/custom-hostnames.ts).
 */
export const customHostnameRemovals = sqliteTable("custom_hostname_removals", {
  id: text("id").primaryKey(),
  hostname: text("hostname").notNull(),
  requestedAt: integer("requested_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Legacy: one raw row per content request, as the consumer wrote them before raw events moved to the R2 archive
 * and `analytics_batches`. Nothing writes it any more; the daily cron archives its rows to R2 and deletes them in
 * bounded chunks (analytics/retention.ts), and a later migration drops it once it is empty everywhere.
 */
export const analytics = sqliteTable(
  "analytics",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The queue message id: a redelivered message is stored (and counted) once. */
    messageId: text("message_id").notNull().unique(),
    url: text("url").notNull(),
    mappingId: integer("mapping_id"),
    timestamp: integer("timestamp", { mode: "timestamp_ms" }).notNull(),
    userAgent: text("user_agent"),
    referer: text("referer"),
    userId: userRef(),
    isContentDelivery: integer("is_content_delivery", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("analytics_user_idx").on(t.userId, t.timestamp)],
);

/**
 * The ledger of counted page views: per consumed batch, one row per span of 10 seconds of the views' own timestamps
 * (analytics/record.ts), holding their ids (JSON). A view redelivered, alone or in another batch, is recognised by
 * its id among the rows of its span. Rows live `ANALYTICS_RAW_RETENTION_DAYS` (default 7); the events themselves
 * are in the R2 archive. A WITHOUT ROWID table (db/raw.ts): one B-tree write per row, and the purge deletes a range
 * of its key.
 */
export const analyticsLedger = sqliteTable(
  "analytics_ledger",
  {
    /** The first Unix second of the span of the views' timestamps (rows written before spans: their own second). */
    second: integer("second").notNull(),
    /** The batch's id, also the name of its archive object in R2. */
    batch: text("batch").notNull(),
    /** JSON array of the view ids. */
    messageIds: text("message_ids").notNull(),
  },
  (t) => [primaryKey({ columns: [t.second, t.batch] })],
);

/**
 * Counted page views not yet added to the counters: one row per consumed batch, written in the transaction that
 * writes its ledger rows, folded into the counters and deleted in one transaction by the minute cron
 * (analytics/fold.ts). So each view is counted exactly once, and the counters' rows are written once a minute
 * whatever the number of batches.
 */
export const analyticsPending = sqliteTable("analytics_pending", {
  /**
   * In the order written, never reused (AUTOINCREMENT): the fold takes the oldest first, and a fold is told apart
   * by its range of them (`url_stats.latest_day_seq`).
   */
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  batch: text("batch").notNull(),
  /** How many views `events` holds. */
  views: integer("views").notNull(),
  /** JSON array of the batch's fresh views as the fold reads them (analytics/record.ts `CountedView`). */
  events: text("events").notNull(),
  /**
   * 1 for sums a reducer held and settled (`events` are `HeldSum`s, analytics/reducer-sums.ts): what the fold
   * counts. A consumer's row (0) holds views, which the fold hands to the reducers.
   */
  reduced: integer("reduced").notNull().default(0),
});

/**
 * A range of pending rows whose page views of `customers` (JSON array) go to the reducers (analytics/reducer.ts):
 * written before the reducers are told, deleted in the fold's transaction, so a cron that stops half way hands the
 * same range and customers over again.
 */
export const analyticsHandoffs = sqliteTable("analytics_handoffs", {
  fromSeq: integer("from_seq").primaryKey(),
  toSeq: integer("to_seq").notNull(),
  customers: text("customers").notNull(),
  /** Folds of the range that failed handing it over (a reducer failing), and the last reason: shown to admins. */
  failures: integer("failures").notNull().default(0),
  lastError: text("last_error"),
});

/**
 * Page views and goals that were not counted, per UTC day and reason (models/analytics-losses.ts): those the queue
 * refused from an isolate (`enqueue`), and those a redelivery brought back after the ledger's window (`too-old`:
 * counting them could count a view twice). Admins see the last days on their overview; nothing here is per customer.
 */
export const analyticsLosses = sqliteTable(
  "analytics_losses",
  {
    day: text("day").notNull(),
    reason: text("reason", { enum: ["enqueue", "too-old"] }).notNull(),
    items: integer("items").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.reason] })],
);

/**
 * A customer's analytics events set aside because folding them failed (analytics/quarantine.ts): kept whole, as the
 * pending rows held them, until an admin releases them back into the fold. `handed` events are page views the
 * reducers already hold: on release only the experiments' statements count them.
 */
export const analyticsQuarantine = sqliteTable(
  "analytics_quarantine",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    /** As `analytics_pending.reduced`. */
    reduced: integer("reduced").notNull(),
    views: integer("views").notNull(),
    events: text("events").notNull(),
    /** How often these events have been set aside: released again automatically while below `QUARANTINE_RETRIES`. */
    attempts: integer("attempts").notNull(),
    /** Why the fold failed (the error's message). */
    reason: text("reason").notNull(),
    quarantinedAt: integer("quarantined_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("analytics_quarantine_user_idx").on(t.userId, t.id)],
);

/**
 * Per reducer shard and customer: the position of the last part of a handoff (its `to_seq` × 1,000 + the part,
 * analytics/reducer.ts) whose sums of the customer are in the counters, written in the transaction that settles
 * them, so a reducer that restarts holds only what came after.
 */
export const reducerCheckpoints = sqliteTable(
  "reducer_checkpoints",
  {
    shard: integer("shard").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    through: integer("through").notNull(),
  },
  (t) => [primaryKey({ columns: [t.shard, t.userId] })],
);

/**
 * Counters per customer and normalised URL, all time: the Analytics tab (one row per URL, whatever the days). Its
 * URLs are searched through an FTS5 table kept by triggers (db/raw.ts). The row also holds the counts of the URL's
 * newest day (`latest_day`), so that the fold writes one row per URL a minute, not two: that day's point of the
 * URL's series is `url_daily_usage`'s row of the day (if any) plus these; the first fold of a later day moves them
 * there (analytics/fold.ts).
 */
export const urlStats = sqliteTable(
  "url_stats",
  {
    userId: userRef(),
    url: text("url").notNull(),
    hits: integer("hits").notNull().default(0),
    deliveries: integer("deliveries").notNull().default(0),
    lastAccessed: integer("last_accessed", { mode: "timestamp_ms" }).notNull(),
    /**
     * `last_accessed`'s hour (ms / 3,600,000), what the Last Accessed order is indexed on: a URL folded every minute
     * moves its index entry once an hour, not once a minute (analytics/fold.ts); the order within an hour is sorted
     * on read. Every writer sets it with `last_accessed`.
     */
    lastAccessedHour: integer("last_accessed_hour").notNull().default(0),
    /** The UTC day (YYYY-MM-DD) of the `latest_day_*` counts; '' when they have been moved to `url_daily_usage`. */
    latestDay: text("latest_day").notNull().default(""),
    latestDayRequests: integer("latest_day_requests").notNull().default(0),
    latestDayDeliveries: integer("latest_day_deliveries").notNull().default(0),
    latestDayCrawlerRequests: integer("latest_day_crawler_requests").notNull().default(0),
    /** The last `analytics_pending.seq` of the fold that set `latest_day`: that fold does not count the URL as seen. */
    latestDaySeq: integer("latest_day_seq").notNull().default(0),
    /**
     * The counts of the newest exact mapping at this URL that views were counted for, on the URL's row so that a
     * fold writes one row for both (analytics/fold.ts); a mapping's totals are these plus its `mapping_stats` row.
     * Not indexed: a mapping finds them by the URL. Triggers on `url_mappings` (db/raw.ts) clear them when the
     * mapping is deleted and move them to `mapping_stats` when it moves to another URL.
     */
    mappingId: integer("mapping_id"),
    mappingRequests: integer("mapping_requests").notNull().default(0),
    mappingDeliveries: integer("mapping_deliveries").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.url] }),
    index("url_stats_last_accessed_hour_idx").on(t.userId, t.lastAccessedHour),
  ],
);

/**
 * Counters per customer, normalised URL and UTC day: the series of one URL (`GET /api/analytics/timeseries?url=`),
 * one upsert per (customer, URL, day) of each analytics batch (docs/analytics.md). A WITHOUT ROWID table (db/raw.ts:
 * drizzle cannot express it): read and written only by its key.
 */
export const urlDailyUsage = sqliteTable(
  "url_daily_usage",
  {
    userId: userRef(),
    url: text("url").notNull(),
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    deliveries: integer("deliveries").notNull().default(0),
    /** Of the requests, those of known search and AI crawlers (lib/crawlers.ts). */
    crawlerRequests: integer("crawler_requests").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.url, t.day] })],
);

/**
 * Counters per customer, normalised URL and UTC month (`month` is its first day, YYYY-MM-01): the days of
 * `url_daily_usage` older than its 13 months, summed (analytics/url-months.ts), so that table stays bounded. A
 * WITHOUT ROWID table (db/raw.ts), read and written only by its key.
 */
export const urlMonthlyUsage = sqliteTable(
  "url_monthly_usage",
  {
    userId: userRef(),
    url: text("url").notNull(),
    month: text("month").notNull(),
    requests: integer("requests").notNull().default(0),
    deliveries: integer("deliveries").notNull().default(0),
    crawlerRequests: integer("crawler_requests").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.url, t.month] })],
);

/**
 * Where a long housekeeping pass stands (one row per job, `position` as JSON), so that a pass cut short by its cron
 * run's budget goes on from there in the next one.
 */
export const housekeepingCursors = sqliteTable("housekeeping_cursors", {
  job: text("job").primaryKey(),
  position: text("position").notNull(),
});

/**
 * Counters per customer and UTC day: "Last Month Requests". The customer's newest day is on their `usage_counters`
 * row until a later day replaces it.
 */
export const dailyUsage = sqliteTable(
  "daily_usage",
  {
    userId: userRef(),
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    deliveries: integer("deliveries").notNull().default(0),
    /** Of the requests, those of known search and AI crawlers (lib/crawlers.ts). */
    crawlerRequests: integer("crawler_requests").notNull().default(0),
    /**
     * URLs without a mapping that got per-URL rows of their own this day (at most 10,000, analytics/fold.ts);
     * `unmapped_urls_before` is the count before the batch being counted, which its later statements read.
     */
    unmappedUrls: integer("unmapped_urls").notNull().default(0),
    unmappedUrlsBefore: integer("unmapped_urls_before").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * Delivery store entries to write again from D1 (worker/delivery/repairs.ts): a write that failed, the customers
 * of a changed plan, the entries of a deleted customer. `target` is `state`, `url:<normalised URL>` or `purge`.
 * No foreign key: a deleted customer's purge must outlive the customer.
 */
export const deliveryRepairs = sqliteTable(
  "delivery_repairs",
  {
    userId: text("user_id").notNull(),
    target: text("target").notNull(),
    requestedAt: integer("requested_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.target] }), index("delivery_repairs_requested_idx").on(t.requestedAt)],
);

/**
 * Who saw which variant of an experiment (docs/experiments.md): one row per experiment and visitor (their random
 * id), written once by the analytics fold, with the first time they saw it. WITHOUT ROWID (db/raw.ts).
 */
export const experimentExposures = sqliteTable(
  "experiment_exposures",
  {
    experiment: text("experiment").notNull(),
    visitor: text("visitor").notNull(),
    userId: userRef(),
    /** The mapping that ran it: a conversion counts while the mapping still runs this experiment with that goal. */
    mappingId: integer("mapping_id").notNull(),
    variant: text("variant").notNull(),
    firstSeen: integer("first_seen").notNull(),
    /**
     * The address that exposed them, as the day's analytics name it (a keyed daily hash, delivery/page-view.ts
     * `visitorId`): one address adds at most `ADDRESS_DAILY_EXPOSURES` visitors a day (null before issue 38).
     */
    address: text("address"),
  },
  (t) => [
    primaryKey({ columns: [t.experiment, t.visitor] }),
    index("experiment_exposures_visitor_idx").on(t.userId, t.visitor),
    index("experiment_exposures_address_idx").on(t.experiment, t.address),
  ],
);

/**
 * One row per experiment run the fold has counted (analytics/experiment-fold.ts): its visitors (a customer's runs
 * together held to `experimentVisitorCap` of their plan) and the last time one was exposed, which the daily cron reads to purge the rows of a run
 * no mapping runs any more (analytics/retention.ts `purgeEndedExperiments`). `visitors_before` and `counted_seq`
 * keep the count from before the fold that wrote it, as the fold's other `_before` columns do.
 */
export const experimentRuns = sqliteTable(
  "experiment_runs",
  {
    experiment: text("experiment").primaryKey(),
    userId: userRef(),
    mappingId: integer("mapping_id").notNull(),
    visitors: integer("visitors").notNull().default(0),
    visitorsBefore: integer("visitors_before").notNull().default(0),
    countedSeq: integer("counted_seq").notNull().default(0),
    lastSeen: integer("last_seen").notNull(),
  },
  (t) => [index("experiment_runs_last_seen_idx").on(t.lastSeen), index("experiment_runs_user_idx").on(t.userId)],
);

/**
 * The goals a customer's visitors reached (`POST /api/goals`), one row per visitor and goal with the last time: a
 * goal reached before the visitor's exposure was counted still converts them. WITHOUT ROWID (db/raw.ts); the daily
 * cron drops rows not touched for `GOAL_RETENTION_DAYS`.
 */
export const visitorGoals = sqliteTable(
  "visitor_goals",
  {
    userId: userRef(),
    visitor: text("visitor").notNull(),
    goal: text("goal").notNull(),
    lastAt: integer("last_at").notNull(),
    /** The address that sent it first (as `experiment_exposures.address`): at most `ADDRESS_DAILY_GOALS` a day. */
    address: text("address"),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.visitor, t.goal] }),
    index("visitor_goals_last_at_idx").on(t.lastAt),
    index("visitor_goals_address_idx").on(t.userId, t.address),
  ],
);

/** Each visitor's conversion on each goal of an experiment, once. WITHOUT ROWID (db/raw.ts). */
export const experimentConversions = sqliteTable(
  "experiment_conversions",
  {
    experiment: text("experiment").notNull(),
    visitor: text("visitor").notNull(),
    goal: text("goal").notNull(),
    userId: userRef(),
    variant: text("variant").notNull(),
  },
  (t) => [primaryKey({ columns: [t.experiment, t.visitor, t.goal] })],
);

/** Visitors per experiment and variant, and conversions per goal (`goal` '' for the visitors' row). */
export const experimentStats = sqliteTable(
  "experiment_stats",
  {
    experiment: text("experiment").notNull(),
    variant: text("variant").notNull(),
    goal: text("goal").notNull(),
    userId: userRef(),
    count: integer("count").notNull().default(0),
    /** Of `count`, the most that one address brought in one day (the results' concentration warning). */
    topAddress: integer("top_address").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.experiment, t.variant, t.goal] })],
);

/**
 * Counters per mapping: requests that matched it and deliveries of its HTML; an exact mapping's current counts are
 * on its URL's `url_stats` row instead, and a mapping's totals are the sum of both.
 */
export const mappingStats = sqliteTable("mapping_stats", {
  mappingId: integer("mapping_id")
    .primaryKey()
    .references(() => urlMappings.id, { onDelete: "cascade" }),
  requests: integer("requests").notNull().default(0),
  deliveries: integer("deliveries").notNull().default(0),
  lastAccessed: integer("last_accessed", { mode: "timestamp_ms" }).notNull(),
});

/**
 * What a customer's mappings add up to, kept by SQLite triggers on `url_mappings` (db/raw.ts),
 * so that the admin's users list and the plan limits read one row instead of counting a
 * customer's mappings, URLs and websites. A customer without mappings has no row (all zero).
 */
export const mappingTotals = sqliteTable("mapping_totals", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  mappings: integer("mappings").notNull().default(0),
  /** Distinct normalised URLs. */
  urls: integer("urls").notNull().default(0),
  /** Distinct websites (hosts). */
  hosts: integer("hosts").notNull().default(0),
  /** Distinct `group_url`s: the groups of the admin's Websites & Events tab. */
  groups: integer("groups").notNull().default(0),
  /**
   * Bytes of the customer's history: every version of their mappings and every deleted mapping kept for restore
   * (db/raw.ts keeps it in step); versions are pruned past `HISTORY_BYTES_LIMIT` (docs/history.md).
   */
  historyBytes: integer("history_bytes").notNull().default(0),
  /**
   * Bytes of the customer's mappings as they are now, measured as a version is (db/raw.ts keeps it in step); a change
   * that would pass the plan's content budget is refused (models/content-budget.ts).
   */
  contentBytes: integer("content_bytes").notNull().default(0),
});

/** Counters per customer: all time, and for the current billing period (reset by the cron). */
export const usageCounters = sqliteTable("usage_counters", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  totalRequests: integer("total_requests").notNull().default(0),
  periodRequests: integer("period_requests").notNull().default(0),
  periodDeliveries: integer("period_deliveries").notNull().default(0),
  /** Requests and deliveries of the period that did not spend the plan's quota: crawlers, visitors past 500 a day. */
  periodUnbilledRequests: integer("period_unbilled_requests").notNull().default(0),
  periodUnbilledDeliveries: integer("period_unbilled_deliveries").notNull().default(0),
  /**
   * The customer's newest day (UTC, YYYY-MM-DD; '' before the first) and its counts, as `daily_usage` has them for
   * earlier days: on this row, a fold writes one row for the customer and its day (analytics/fold.ts). A later day
   * replaces it, and the trigger `usage_counters_latest_day_to_series` (db/raw.ts) adds it to `daily_usage`.
   */
  latestDay: text("latest_day").notNull().default(""),
  latestDayRequests: integer("latest_day_requests").notNull().default(0),
  latestDayDeliveries: integer("latest_day_deliveries").notNull().default(0),
  latestDayCrawlerRequests: integer("latest_day_crawler_requests").notNull().default(0),
  /**
   * As `daily_usage.unmapped_urls`, for the newest day; `..._before` is the count before the fold that last wrote
   * the row, which that fold's later statements read.
   */
  latestDayUnmappedUrls: integer("latest_day_unmapped_urls").notNull().default(0),
  latestDayUnmappedUrlsBefore: integer("latest_day_unmapped_urls_before").notNull().default(0),
});

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

/** The one stored SMTP configuration (row id 1). The password is AES-GCM encrypted with APP_SECRET. */
export const smtpConfig = sqliteTable("smtp_config", {
  id: integer("id").primaryKey(),
  host: text("host").notNull(),
  port: integer("port").notNull(),
  user: text("user").notNull(),
  passwordEncrypted: text("password_encrypted").notNull(),
  fromAddress: text("from_address").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * The newest mails that could not be sent (at most `MAIL_FAILURES_KEPT` rows: each insert drops the older ones),
 * for the admin overview; `blocksMail` marks a failure of the transport itself, which answers mail requests for a
 * while (docs/decisions.md, "Issue 39: mail that fails is told").
 */
export const mailFailures = sqliteTable("mail_failures", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  at: integer("at", { mode: "timestamp_ms" }).notNull(),
  kind: text("kind").$type<MailKind>().notNull(),
  /** Masked when stored: the full address is never kept here. */
  recipient: text("recipient").notNull(),
  error: text("error").notNull(),
  blocksMail: integer("blocks_mail", { mode: "boolean" }).notNull(),
});

export type User = typeof users.$inferSelect;
export type PlanSource = User["planSource"];
export type Subscription = typeof subscriptions.$inferSelect;
export type PayPalTransaction = typeof paypalTransactions.$inferSelect;
export type UrlMapping = typeof urlMappings.$inferSelect;
export type ProductVersion = typeof productVersions.$inferSelect;
export type Website = typeof websites.$inferSelect;
export type ApiKeyKind = (typeof apiKeys.$inferSelect)["kind"];
