/** @module Analytics: the pending views, the ledger, the handoffs and reducer checkpoints, and the counters (docs/analytics.md). */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { userRef, users } from "./accounts";
import { urlMappings } from "./mappings";

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
export const analyticsPending = sqliteTable(
  "analytics_pending",
  {
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
  },
  // The settled sums not counted yet, which a reader adds to the counters (models/held-counts.ts): few rows, and
  // only between a reducer's settle and its count, so the index costs the consumer's rows nothing.
  (t) => [
    index("analytics_pending_reduced_idx")
      .on(t.seq)
      .where(sql`${t.reduced} = 1`),
  ],
);

/**
 * A range of pending rows whose page views of `customers` (JSON array) go to the reducers (analytics/reducer.ts):
 * written before the reducers are told, deleted in the fold's transaction, so a cron that stops half way hands the
 * same range and customers over again.
 */
export const analyticsHandoffs = sqliteTable("analytics_handoffs", {
  fromSeq: integer("from_seq").primaryKey(),
  toSeq: integer("to_seq").notNull(),
  customers: text("customers").notNull(),
  /**
   * Of those, the customers without a limit whose pages this handoff spreads over several reducers (a JSON array;
   * null for a handoff begun before spreading): fixed when it begins, so that handing it over again makes the same parts.
   */
  spread: text("spread"),
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
 * The number of reducer shards the held sums are routed by (one row): when `ANALYTICS_REDUCER_SHARDS` differs, the
 * minute cron settles every shard of this count before it routes by the new one (analytics/reducer-layout.ts).
 */
export const reducerLayout = sqliteTable("reducer_layout", {
  id: integer("id").primaryKey(),
  shards: integer("shards").notNull(),
});

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

/**
 * Where the customer's content was first asked for from one of their pages (the getting-started `snippet` step,
 * docs/getting-started.md): one row per customer, written once by the analytics consumer (models/onboarding.ts).
 */
export const snippetSightings = sqliteTable("snippet_sightings", {
  userId: userRef().primaryKey(),
  /** The page's host. */
  host: text("host").notNull(),
  /** The page view's time. */
  seenAt: integer("seen_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Selector health (docs/placement.md): per mapping with a selector and UTC day, its delivered views (counted by the
 * fold) and the views whose selector named no element (counted by the consumer), kept `PLACEMENT_HEALTH_DAYS`.
 */
export const placementHealth = sqliteTable(
  "placement_health",
  {
    mappingId: integer("mapping_id")
      .notNull()
      .references(() => urlMappings.id, { onDelete: "cascade" }),
    /** YYYY-MM-DD (UTC). */
    day: text("day").notNull(),
    views: integer("views").notNull().default(0),
    misses: integer("misses").notNull().default(0),
    lastMissAt: integer("last_miss_at", { mode: "timestamp_ms" }),
  },
  (t) => [primaryKey({ columns: [t.mappingId, t.day] }), index("placement_health_day_idx").on(t.day)],
);
