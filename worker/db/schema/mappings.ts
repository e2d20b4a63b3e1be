/** @module Mappings: what a customer delivers where, each version, the deleted ones, and the delivery store's repairs and changes. */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DEFAULT_PRIORITY, type Audience, type StoredHoldout } from "#contract/audiences";
import type { StoredExperiment } from "#contract/experiments";
import type { Placement } from "#contract/placement";
import type { Seo } from "#contract/seo";
import type { VersionAuthor } from "#contract/versions";
import { createdAt } from "./columns";
import { userRef } from "./accounts";

/** What a mapping delivers, where and when, and who changed it last: a mapping's columns, and each version's. */
export const mappingState = () => ({
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
  /**
   * Who the mapping is for (docs/audiences.md); null: everyone, the URL's fallback. Part of the state, so drafts,
   * schedules and versions carry it.
   */
  audience: text("audience", { mode: "json" }).$type<Audience>(),
  /** Among a URL's audience mappings, lower is tried first (ties: older first); meaningless without an audience. */
  priority: integer("priority").notNull().default(DEFAULT_PRIORITY),
  /**
   * The share of the audience shown the fallback instead, and what it measures (docs/audiences.md, "Holdout");
   * null: none. Only on a mapping for an audience without an experiment.
   */
  holdout: text("holdout", { mode: "json" }).$type<StoredHoldout>(),
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
     * The running experiment's id and goals (JSON array), or the holdout's (a mapping has one or the other), copied
     * from `experiment` or `holdout` by triggers (db/raw.ts) when it is written, so that statements over many customers (the fold, limits) never parse a customer's JSON; null without
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
    // A customer's mappings that run experiments or holdouts: the goals their delivery state accepts.
    index("url_mappings_experiment_idx")
      .on(t.userId)
      .where(sql`${t.experimentId} is not null`),
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
    // A URL's audience mappings that are published or scheduled (docs/audiences.md): what its delivery entry holds,
    // and the count AUDIENCE_MAPPINGS_PER_URL_MAX bounds, from the index alone.
    index("url_mappings_audience_idx")
      .on(t.userId, t.normalizedUrl, t.priority, t.id)
      .where(sql`${t.audience} is not null and (${t.publishedAt} is not null or ${t.publishAt} is not null)`),
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
 * The delivery store's changes, in the order they were written (delivery/change-feed.ts): one row per write of a
 * customer's state (`s:<user id>`) or an edge website's entry (`e:<hostname>`), stamped when the write to KV had
 * landed. Locations follow it to keep what they read for as long as it did not change; rows older than two hours go
 * (the minute cron).
 */
export const deliveryChanges = sqliteTable(
  "delivery_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    changedAt: integer("changed_at").notNull(),
  },
  (t) => [index("delivery_changes_changed_idx").on(t.changedAt)],
);

export type UrlMapping = typeof urlMappings.$inferSelect;
