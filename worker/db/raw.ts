/**
 * @module What the database holds that drizzle's schema (schema/) cannot say: the FTS5 trigram tables searches
 * read, the triggers that keep them and other tables in step, and which tables are WITHOUT ROWID. Each object is
 * declared once, here, as the SQL that creates it. A change goes into a migration of its own (`npm run
 * db:generate -- --custom`, then the new SQL from here), never into a generated one; schema-drift.test.ts holds the
 * migrated database to schema/ and to this file.
 */

import { HISTORY_BYTES_LIMIT } from "#contract/versions";
import { FINISHED_DELIVERIES_KEPT } from "#contract/webhooks";

/** An object drizzle cannot declare: its name, the table it belongs to, and the SQL that creates it. */
export interface RawObject {
  name: string;
  table: string;
  sql: string;
}

/** The FTS5 trigram tables; db/expressions.ts `trigramCandidates` reads them for searches of three characters or more. */
export const URL_MAPPINGS_SEARCH = "url_mappings_search";
export const URL_STATS_SEARCH = "url_stats_search";
export const PAYPAL_TRANSACTIONS_SEARCH = "paypal_transactions_search";

export const SEARCH_TABLES: readonly RawObject[] = [
  {
    name: PAYPAL_TRANSACTIONS_SEARCH,
    table: "paypal_transactions",
    sql: `
CREATE VIRTUAL TABLE "paypal_transactions_search" USING fts5(
  "payer_email", content='paypal_transactions', content_rowid='id', tokenize='trigram'
)
`,
  },
  {
    name: URL_MAPPINGS_SEARCH,
    table: "url_mappings",
    sql: `
CREATE VIRTUAL TABLE "url_mappings_search" USING fts5(
  "url", "html_content", content='url_mappings', content_rowid='id', tokenize='trigram'
)
`,
  },
  {
    name: URL_STATS_SEARCH,
    table: "url_stats",
    sql: `
CREATE VIRTUAL TABLE "url_stats_search" USING fts5("url", "user_id" UNINDEXED, tokenize='trigram')
`,
  },
];

/**
 * A mapping's webhook event: when the customer has webhooks (and `when` holds), one row per webhook, one event id
 * shared by all of them, with the event's facts (models/webhook-payload.ts renders the body). A deleted mapping has
 * no author.
 */
function webhookEventTrigger(t: { name: string; fires: string; when: string; row: "NEW" | "OLD"; event: string }) {
  const r = t.row;
  const changedBy = r === "OLD" ? "NULL" : `${r}."changed_by"`;
  const ofCustomer = `EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = ${r}."user_id")`;
  const when = r === "OLD" ? `${ofCustomer} AND ${t.when}` : `${t.when} AND ${ofCustomer}`;
  return {
    name: t.name,
    table: "url_mappings",
    sql: `
CREATE TRIGGER "${t.name}" ${t.fires}
WHEN ${when} BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", ${t.event},
    json_object('id', ${r}."id", 'url', ${r}."url", 'publishedAt', ${r}."published_at", 'publishAt', ${r}."publish_at",
      'unpublishAt', ${r}."unpublish_at", 'changedBy', ${changedBy}, 'audience', json(${r}."audience"),
      'priority', ${r}."priority"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = ${r}."user_id";
END
`,
  };
}

/**
 * The bytes a version (or a deleted mapping's copy) stores: its text columns in UTF-8, plus 64 for its ids, times
 * and row header. What `mapping_totals.history_bytes` sums.
 */
const VERSION_BYTES = (r: string) => `(64 + length(CAST(${r}."url" AS BLOB)) + length(CAST(${r}."html_content" AS BLOB))
    + coalesce(length(CAST(${r}."placement" AS BLOB)), 0) + coalesce(length(CAST(${r}."seo" AS BLOB)), 0)
    + coalesce(length(CAST(${r}."experiment" AS BLOB)), 0) + coalesce(length(CAST(${r}."audience" AS BLOB)), 0)
    + coalesce(length(CAST(${r}."holdout" AS BLOB)), 0))`;

/** The mapping_versions columns the url_mappings triggers write, and their values from the mapping row `r`. */
const VERSION_COLUMNS = `"mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "audience", "priority", "holdout", "published_at", "publish_at", "unpublish_at", "created_at",
    "user_id", "bytes"`;
const versionValues = (r: "NEW" | "OLD", version: string, changedBy: string, createdAt: string) =>
  `${r}."id", ${version}, ${changedBy}, ${r}."url", ${r}."html_content", ${r}."placement", ${r}."seo",
    ${r}."experiment", ${r}."audience", ${r}."priority", ${r}."holdout", ${r}."published_at", ${r}."publish_at",
    ${r}."unpublish_at", ${createdAt}, ${r}."user_id", ${VERSION_BYTES(r)}`;
const NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";

/** In a trigger: `bytes` more (or fewer) of the customer's history in `mapping_totals`. */
const addHistoryBytes = (userId: string, bytes: string) => `  INSERT INTO "mapping_totals" ("user_id", "history_bytes")
    VALUES (${userId}, ${bytes})
    ON CONFLICT ("user_id") DO UPDATE SET "history_bytes" = "history_bytes" + excluded."history_bytes";`;

/** In a trigger: `bytes` more (or fewer) of the customer's mappings in `mapping_totals.content_bytes`. */
const addContentBytes = (userId: string, bytes: string) => `  INSERT INTO "mapping_totals" ("user_id", "content_bytes")
    VALUES (${userId}, ${bytes})
    ON CONFLICT ("user_id") DO UPDATE SET "content_bytes" = "content_bytes" + excluded."content_bytes";`;

/** Finished deliveries a webhook's log bound removes at a time, once it keeps more than FINISHED_DELIVERIES_KEPT. */
const LOG_PRUNE_CHUNK = 100;

/**
 * In a trigger on `webhook_deliveries`: one more finished delivery of the webhook of NEW, and past the bound its
 * oldest finished ones go, LOG_PRUNE_CHUNK at a time (read by webhook_deliveries_finished_idx, never the pending).
 */
const COUNT_FINISHED_AND_PRUNE = `  UPDATE "webhooks" SET "finished_deliveries" = "finished_deliveries" + 1 WHERE "id" = NEW."webhook_id";
  DELETE FROM "webhook_deliveries" WHERE "id" IN (
    SELECT "id" FROM "webhook_deliveries"
    WHERE "webhook_id" = NEW."webhook_id" AND "status" <> 'pending'
      AND (SELECT "finished_deliveries" FROM "webhooks" WHERE "id" = NEW."webhook_id") > ${FINISHED_DELIVERIES_KEPT}
    ORDER BY "id" LIMIT ${LOG_PRUNE_CHUNK});`;

/** Superseded versions the budget's prune reads per write: it removes the oldest of these that bring it back under. */
const PRUNE_SCAN = 1_000;

/**
 * A mapping row's experiment as SQLite can read it: null for one it cannot (stored before nesting was capped, deeper
 * than the 1,000 levels its JSON functions take), so that no statement fails on it.
 */
const readableExperiment = (row: "NEW" | "OLD") =>
  `(CASE WHEN json_valid(${row}."experiment") THEN ${row}."experiment" END)`;

/**
 * In a trigger on `url_mappings`: the experiment's id and goals copied to their columns (schema/mappings.ts), or the
 * holdout's (a mapping runs one or the other, docs/audiences.md): the fold counts both alike.
 */
const COPY_EXPERIMENT_FACTS = `  UPDATE "url_mappings" SET ("experiment_id", "experiment_goals") =
    (SELECT e ->> '$.id', e -> '$.goals' FROM (SELECT coalesce(${readableExperiment("NEW")}, NEW."holdout") AS e))
  WHERE "id" = NEW."id";`;

/** In a trigger on `url_mappings`: the counts of the mapping (OLD) on its URL's `url_stats` row, cleared. */
const CLEAR_MAPPING_COUNTS = `  UPDATE "url_stats" SET "mapping_id" = NULL, "mapping_requests" = 0, "mapping_deliveries" = 0
  WHERE "user_id" = OLD."user_id" AND "url" = OLD."normalized_url" AND "mapping_id" = OLD."id";`;

export const TRIGGERS: readonly RawObject[] = [
  // paypal_transactions: keep the payer-email search in step (admin billing search).
  {
    name: "paypal_transactions_search_after_delete",
    table: "paypal_transactions",
    sql: `
CREATE TRIGGER "paypal_transactions_search_after_delete" AFTER DELETE ON "paypal_transactions" BEGIN
  INSERT INTO "paypal_transactions_search" ("paypal_transactions_search", "rowid", "payer_email")
    VALUES ('delete', OLD."id", OLD."payer_email");
END
`,
  },
  {
    name: "paypal_transactions_search_after_insert",
    table: "paypal_transactions",
    sql: `
CREATE TRIGGER "paypal_transactions_search_after_insert" AFTER INSERT ON "paypal_transactions" BEGIN
  INSERT INTO "paypal_transactions_search" ("rowid", "payer_email") VALUES (NEW."id", NEW."payer_email");
END
`,
  },
  {
    name: "paypal_transactions_search_after_update",
    table: "paypal_transactions",
    sql: `
CREATE TRIGGER "paypal_transactions_search_after_update" AFTER UPDATE OF "payer_email" ON "paypal_transactions" BEGIN
  INSERT INTO "paypal_transactions_search" ("paypal_transactions_search", "rowid", "payer_email")
    VALUES ('delete', OLD."id", OLD."payer_email");
  INSERT INTO "paypal_transactions_search" ("rowid", "payer_email") VALUES (NEW."id", NEW."payer_email");
END
`,
  },
  // url_mappings: mapping totals (mapping_totals), the search index, the version history (mapping_versions, 50 a
  // mapping, within the customer's history budget) and the webhook outbox (webhook_deliveries: the event and its
  // facts; models/webhook-payload.ts renders the body).
  {
    name: "mapping_totals_after_delete",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "mapping_totals_after_delete" AFTER DELETE ON "url_mappings" BEGIN
  UPDATE "mapping_totals" SET "mappings" = "mappings" - 1,
    "urls" = "urls" - NOT EXISTS (SELECT 1 FROM "url_mappings" m
      WHERE m."user_id" = OLD."user_id" AND m."normalized_url" = OLD."normalized_url"),
    "hosts" = "hosts" - NOT EXISTS (SELECT 1 FROM "url_mappings" m
      WHERE m."user_id" = OLD."user_id" AND m."host" = OLD."host"),
    "groups" = "groups" - NOT EXISTS (SELECT 1 FROM "url_mappings" m
      WHERE m."user_id" = OLD."user_id" AND m."group_url" = OLD."group_url")
  WHERE "user_id" = OLD."user_id";
END
`,
  },
  {
    name: "mapping_totals_after_insert",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "mapping_totals_after_insert" AFTER INSERT ON "url_mappings" BEGIN
  INSERT INTO "mapping_totals" ("user_id", "mappings", "urls", "hosts", "groups") VALUES (NEW."user_id", 1,
    NOT EXISTS (SELECT 1 FROM "url_mappings" m
      WHERE m."user_id" = NEW."user_id" AND m."normalized_url" = NEW."normalized_url" AND m."id" <> NEW."id"),
    NOT EXISTS (SELECT 1 FROM "url_mappings" m
      WHERE m."user_id" = NEW."user_id" AND m."host" = NEW."host" AND m."id" <> NEW."id"),
    NOT EXISTS (SELECT 1 FROM "url_mappings" m
      WHERE m."user_id" = NEW."user_id" AND m."group_url" = NEW."group_url" AND m."id" <> NEW."id"))
  ON CONFLICT ("user_id") DO UPDATE SET "mappings" = "mappings" + 1, "urls" = "urls" + excluded."urls",
    "hosts" = "hosts" + excluded."hosts", "groups" = "groups" + excluded."groups";
END
`,
  },
  {
    name: "mapping_totals_after_move",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "mapping_totals_after_move" AFTER UPDATE OF "url", "normalized_url" ON "url_mappings"
WHEN OLD."normalized_url" IS NOT NEW."normalized_url" OR OLD."group_url" IS NOT NEW."group_url" BEGIN
  UPDATE "mapping_totals" SET
    "urls" = "urls" + CASE WHEN OLD."normalized_url" = NEW."normalized_url" THEN 0 ELSE
      (NOT EXISTS (SELECT 1 FROM "url_mappings" m
        WHERE m."user_id" = NEW."user_id" AND m."normalized_url" = NEW."normalized_url" AND m."id" <> NEW."id"))
      - (NOT EXISTS (SELECT 1 FROM "url_mappings" m
        WHERE m."user_id" = OLD."user_id" AND m."normalized_url" = OLD."normalized_url")) END,
    "hosts" = "hosts" + CASE WHEN OLD."host" = NEW."host" THEN 0 ELSE
      (NOT EXISTS (SELECT 1 FROM "url_mappings" m
        WHERE m."user_id" = NEW."user_id" AND m."host" = NEW."host" AND m."id" <> NEW."id"))
      - (NOT EXISTS (SELECT 1 FROM "url_mappings" m WHERE m."user_id" = OLD."user_id" AND m."host" = OLD."host")) END,
    "groups" = "groups" + CASE WHEN OLD."group_url" = NEW."group_url" THEN 0 ELSE
      (NOT EXISTS (SELECT 1 FROM "url_mappings" m
        WHERE m."user_id" = NEW."user_id" AND m."group_url" = NEW."group_url" AND m."id" <> NEW."id"))
      - (NOT EXISTS (SELECT 1 FROM "url_mappings" m
        WHERE m."user_id" = OLD."user_id" AND m."group_url" = OLD."group_url")) END
  WHERE "user_id" = NEW."user_id";
END
`,
  },
  {
    name: "mapping_versions_after_insert",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "mapping_versions_after_insert" AFTER INSERT ON "url_mappings" BEGIN
  INSERT INTO "mapping_versions" (${VERSION_COLUMNS})
  VALUES (${versionValues("NEW", "1", 'NEW."changed_by"', NOW_MS)});
END
`,
  },
  {
    name: "mapping_versions_after_update",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "mapping_versions_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo",
  "experiment", "audience", "priority", "holdout", "published_at", "publish_at", "unpublish_at" ON "url_mappings"
WHEN OLD."url" IS NOT NEW."url" OR OLD."html_content" IS NOT NEW."html_content"
  OR OLD."placement" IS NOT NEW."placement" OR OLD."seo" IS NOT NEW."seo" OR OLD."experiment" IS NOT NEW."experiment"
  OR OLD."audience" IS NOT NEW."audience" OR OLD."priority" IS NOT NEW."priority" OR OLD."holdout" IS NOT NEW."holdout"
  OR OLD."published_at" IS NOT NEW."published_at" OR OLD."publish_at" IS NOT NEW."publish_at"
  OR OLD."unpublish_at" IS NOT NEW."unpublish_at" BEGIN
  INSERT INTO "mapping_versions" (${VERSION_COLUMNS})
  SELECT ${versionValues("OLD", "1", "NULL", 'OLD."created_at"')}
  WHERE NOT EXISTS (SELECT 1 FROM "mapping_versions" WHERE "mapping_id" = OLD."id");
  INSERT INTO "mapping_versions" (${VERSION_COLUMNS})
  VALUES (${versionValues(
    "NEW",
    `(SELECT coalesce(max("version"), 0) + 1 FROM "mapping_versions" WHERE "mapping_id" = NEW."id")`,
    'NEW."changed_by"',
    NOW_MS,
  )});
  DELETE FROM "mapping_versions" WHERE "mapping_id" = NEW."id" AND "version" <= (
    SELECT max("version") - 50 FROM "mapping_versions" WHERE "mapping_id" = NEW."id");
END
`,
  },
  // mapping_versions and deleted_mappings: the customer's history bytes (mapping_totals.history_bytes), and the
  // budget: a new version marks the mapping's earlier ones superseded, then, past HISTORY_BYTES_LIMIT (a test before
  // any read), the customer's oldest superseded versions that bring the history back under it go (at most PRUNE_SCAN
  // read per write, by mapping_versions_prunable_idx). A mapping's newest version is never superseded: it stays.
  {
    name: "mapping_versions_budget_after_insert",
    table: "mapping_versions",
    sql: `
CREATE TRIGGER "mapping_versions_budget_after_insert" AFTER INSERT ON "mapping_versions" BEGIN
  UPDATE "mapping_versions" SET "superseded" = 1
  WHERE "mapping_id" = NEW."mapping_id" AND "version" < NEW."version" AND "superseded" = 0;
${addHistoryBytes('NEW."user_id"', 'NEW."bytes"')}
  DELETE FROM "mapping_versions" WHERE "id" IN (
    SELECT "id" FROM (
      SELECT "id", sum("bytes") OVER (ORDER BY "id") - "bytes" AS "freed_before"
      FROM (SELECT "id", "bytes" FROM "mapping_versions"
        WHERE "user_id" = NEW."user_id" AND "superseded" = 1
          AND (SELECT "history_bytes" FROM "mapping_totals" WHERE "user_id" = NEW."user_id") > ${HISTORY_BYTES_LIMIT}
        ORDER BY "id" LIMIT ${PRUNE_SCAN}))
    WHERE "freed_before" < (SELECT "history_bytes" FROM "mapping_totals" WHERE "user_id" = NEW."user_id")
      - ${HISTORY_BYTES_LIMIT});
END
`,
  },
  {
    name: "mapping_versions_budget_after_delete",
    table: "mapping_versions",
    sql: `
CREATE TRIGGER "mapping_versions_budget_after_delete" AFTER DELETE ON "mapping_versions" BEGIN
  UPDATE "mapping_totals" SET "history_bytes" = "history_bytes" - OLD."bytes" WHERE "user_id" = OLD."user_id";
END
`,
  },
  {
    name: "deleted_mappings_budget_after_insert",
    table: "deleted_mappings",
    sql: `
CREATE TRIGGER "deleted_mappings_budget_after_insert" AFTER INSERT ON "deleted_mappings" BEGIN
${addHistoryBytes('NEW."user_id"', VERSION_BYTES("NEW"))}
END
`,
  },
  {
    name: "deleted_mappings_budget_after_delete",
    table: "deleted_mappings",
    sql: `
CREATE TRIGGER "deleted_mappings_budget_after_delete" AFTER DELETE ON "deleted_mappings" BEGIN
  UPDATE "mapping_totals" SET "history_bytes" = "history_bytes" - ${VERSION_BYTES("OLD")}
  WHERE "user_id" = OLD."user_id";
END
`,
  },
  // url_mappings: the bytes of the customer's mappings (mapping_totals.content_bytes), which their plan's content
  // budget bounds (models/content-budget.ts), measured as a version is.
  {
    name: "mapping_content_after_insert",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "mapping_content_after_insert" AFTER INSERT ON "url_mappings" BEGIN
${addContentBytes('NEW."user_id"', VERSION_BYTES("NEW"))}
END
`,
  },
  {
    name: "mapping_content_after_update",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "mapping_content_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo", "experiment",
  "audience", "holdout" ON "url_mappings" BEGIN
  UPDATE "mapping_totals" SET "content_bytes" = "content_bytes" + ${VERSION_BYTES("NEW")} - ${VERSION_BYTES("OLD")}
  WHERE "user_id" = NEW."user_id";
END
`,
  },
  {
    name: "mapping_content_after_delete",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "mapping_content_after_delete" AFTER DELETE ON "url_mappings" BEGIN
  UPDATE "mapping_totals" SET "content_bytes" = "content_bytes" - ${VERSION_BYTES("OLD")}
  WHERE "user_id" = OLD."user_id";
END
`,
  },
  // webhook_deliveries: each webhook's finished deliveries (webhooks.finished_deliveries) and their bound, the newest
  // FINISHED_DELIVERIES_KEPT; pending ones are never removed.
  {
    name: "webhook_deliveries_log_after_insert",
    table: "webhook_deliveries",
    sql: `
CREATE TRIGGER "webhook_deliveries_log_after_insert" AFTER INSERT ON "webhook_deliveries"
WHEN NEW."status" <> 'pending' BEGIN
${COUNT_FINISHED_AND_PRUNE}
END
`,
  },
  {
    name: "webhook_deliveries_log_after_finish",
    table: "webhook_deliveries",
    sql: `
CREATE TRIGGER "webhook_deliveries_log_after_finish" AFTER UPDATE OF "status" ON "webhook_deliveries"
WHEN OLD."status" = 'pending' AND NEW."status" <> 'pending' BEGIN
${COUNT_FINISHED_AND_PRUNE}
END
`,
  },
  {
    name: "webhook_deliveries_log_after_delete",
    table: "webhook_deliveries",
    sql: `
CREATE TRIGGER "webhook_deliveries_log_after_delete" AFTER DELETE ON "webhook_deliveries"
WHEN OLD."status" <> 'pending' BEGIN
  UPDATE "webhooks" SET "finished_deliveries" = "finished_deliveries" - 1 WHERE "id" = OLD."webhook_id";
END
`,
  },
  {
    name: "url_mappings_search_after_delete",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "url_mappings_search_after_delete" AFTER DELETE ON "url_mappings" BEGIN
  INSERT INTO "url_mappings_search" ("url_mappings_search", "rowid", "url", "html_content")
    VALUES ('delete', OLD."id", OLD."url", OLD."html_content");
END
`,
  },
  {
    name: "url_mappings_search_after_insert",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "url_mappings_search_after_insert" AFTER INSERT ON "url_mappings" BEGIN
  INSERT INTO "url_mappings_search" ("rowid", "url", "html_content") VALUES (NEW."id", NEW."url", NEW."html_content");
END
`,
  },
  {
    name: "url_mappings_search_after_update",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "url_mappings_search_after_update" AFTER UPDATE OF "url", "html_content" ON "url_mappings" BEGIN
  INSERT INTO "url_mappings_search" ("url_mappings_search", "rowid", "url", "html_content")
    VALUES ('delete', OLD."id", OLD."url", OLD."html_content");
  INSERT INTO "url_mappings_search" ("rowid", "url", "html_content") VALUES (NEW."id", NEW."url", NEW."html_content");
END
`,
  },
  webhookEventTrigger({
    name: "webhook_events_after_delete",
    fires: 'AFTER DELETE ON "url_mappings"',
    when: 'EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."user_id")',
    row: "OLD",
    event: "'mapping.deleted'",
  }),
  webhookEventTrigger({
    name: "webhook_events_after_insert",
    fires: 'AFTER INSERT ON "url_mappings"',
    when: 'NEW."published_at" IS NOT NULL',
    row: "NEW",
    event: "'mapping.published'",
  }),
  webhookEventTrigger({
    name: "webhook_events_after_update",
    fires: `AFTER UPDATE OF "url", "html_content", "placement", "seo", "published_at", "publish_at", "unpublish_at",
  "audience", "priority" ON "url_mappings"`,
    when: `((OLD."published_at" IS NULL) <> (NEW."published_at" IS NULL) OR OLD."url" IS NOT NEW."url"
  OR OLD."html_content" IS NOT NEW."html_content" OR OLD."placement" IS NOT NEW."placement"
  OR OLD."seo" IS NOT NEW."seo" OR OLD."publish_at" IS NOT NEW."publish_at"
  OR OLD."unpublish_at" IS NOT NEW."unpublish_at" OR OLD."audience" IS NOT NEW."audience"
  OR OLD."priority" IS NOT NEW."priority")`,
    row: "NEW",
    event: `CASE
      WHEN OLD."published_at" IS NULL AND NEW."published_at" IS NOT NULL THEN 'mapping.published'
      WHEN OLD."published_at" IS NOT NULL AND NEW."published_at" IS NULL THEN 'mapping.unpublished'
      ELSE 'mapping.changed' END`,
  }),
  // Experiments (docs/experiments.md): started with a mapping or a change of its run; ended by a change that drops
  // it, as a promotion when that change makes one of its variants' HTML the mapping's.
  webhookEventTrigger({
    name: "webhook_experiment_after_insert",
    fires: 'AFTER INSERT ON "url_mappings"',
    when: 'NEW."experiment" IS NOT NULL',
    row: "NEW",
    event: "'experiment.started'",
  }),
  webhookEventTrigger({
    name: "webhook_experiment_after_update",
    fires: 'AFTER UPDATE OF "experiment" ON "url_mappings"',
    when: `(${readableExperiment("OLD")} ->> '$.id') IS NOT (${readableExperiment("NEW")} ->> '$.id')`,
    row: "NEW",
    event: `CASE
      WHEN NEW."experiment" IS NOT NULL THEN 'experiment.started'
      WHEN NEW."html_content" IS NOT OLD."html_content" AND NEW."html_content" IN
        (SELECT v."value" ->> '$.htmlContent' FROM json_each(${readableExperiment("OLD")}, '$.variants') AS v)
        THEN 'experiment.promoted'
      ELSE 'experiment.stopped' END`,
  }),
  // The experiment's (or holdout's) id and goals, in columns of their own for statements over many customers.
  {
    name: "url_mappings_experiment_after_insert",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "url_mappings_experiment_after_insert" AFTER INSERT ON "url_mappings"
WHEN NEW."experiment" IS NOT NULL OR NEW."holdout" IS NOT NULL BEGIN
${COPY_EXPERIMENT_FACTS}
END
`,
  },
  {
    name: "url_mappings_experiment_after_update",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "url_mappings_experiment_after_update" AFTER UPDATE OF "experiment", "holdout" ON "url_mappings" BEGIN
${COPY_EXPERIMENT_FACTS}
END
`,
  },
  // url_stats: keep the URL search of the analytics table in step.
  {
    name: "url_stats_search_after_delete",
    table: "url_stats",
    sql: `
CREATE TRIGGER "url_stats_search_after_delete" AFTER DELETE ON "url_stats" BEGIN
  DELETE FROM "url_stats_search"
    WHERE "url_stats_search" MATCH '"' || replace(OLD."url", '"', '""') || '"'
      AND "url" = OLD."url" AND "user_id" = OLD."user_id";
END
`,
  },
  {
    name: "url_stats_search_after_insert",
    table: "url_stats",
    sql: `
CREATE TRIGGER "url_stats_search_after_insert" AFTER INSERT ON "url_stats" BEGIN
  INSERT INTO "url_stats_search" ("url", "user_id") VALUES (NEW."url", NEW."user_id");
END
`,
  },
  // url_mappings: an exact mapping's counts on its URL's url_stats row (analytics/fold.ts) go with the mapping: cleared
  // when it is deleted (as its mapping_stats row is), moved to mapping_stats when it moves to another URL.
  {
    name: "url_stats_mapping_after_delete",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "url_stats_mapping_after_delete" AFTER DELETE ON "url_mappings" BEGIN
${CLEAR_MAPPING_COUNTS}
END
`,
  },
  {
    name: "url_stats_mapping_after_move",
    table: "url_mappings",
    sql: `
CREATE TRIGGER "url_stats_mapping_after_move" AFTER UPDATE OF "normalized_url" ON "url_mappings"
WHEN OLD."normalized_url" <> NEW."normalized_url" BEGIN
  INSERT INTO "mapping_stats" ("mapping_id", "requests", "deliveries", "last_accessed")
  SELECT OLD."id", "mapping_requests", "mapping_deliveries", "last_accessed" FROM "url_stats"
  WHERE "user_id" = OLD."user_id" AND "url" = OLD."normalized_url" AND "mapping_id" = OLD."id"
  ON CONFLICT ("mapping_id") DO UPDATE SET "requests" = "requests" + excluded."requests",
    "deliveries" = "deliveries" + excluded."deliveries",
    "last_accessed" = max("last_accessed", excluded."last_accessed");
${CLEAR_MAPPING_COUNTS}
END
`,
  },
  // url_stats: a URL's newest day, replaced by a later one (or emptied by the month pass), joins its series.
  {
    name: "url_stats_latest_day_to_series",
    table: "url_stats",
    sql: `
CREATE TRIGGER "url_stats_latest_day_to_series" AFTER UPDATE OF "latest_day" ON "url_stats"
WHEN OLD."latest_day" <> '' AND NEW."latest_day" <> OLD."latest_day" BEGIN
  INSERT INTO "url_daily_usage" ("user_id", "url", "day", "requests", "deliveries", "crawler_requests")
  VALUES (OLD."user_id", OLD."url", OLD."latest_day", OLD."latest_day_requests", OLD."latest_day_deliveries",
    OLD."latest_day_crawler_requests")
  ON CONFLICT ("user_id", "url", "day") DO UPDATE SET "requests" = "requests" + excluded."requests",
    "deliveries" = "deliveries" + excluded."deliveries",
    "crawler_requests" = "crawler_requests" + excluded."crawler_requests";
END
`,
  },
  // usage_counters: a customer's newest day, replaced by a later one, joins their days (daily_usage).
  {
    name: "usage_counters_latest_day_to_series",
    table: "usage_counters",
    sql: `
CREATE TRIGGER "usage_counters_latest_day_to_series" AFTER UPDATE OF "latest_day" ON "usage_counters"
WHEN OLD."latest_day" <> '' AND NEW."latest_day" <> OLD."latest_day" BEGIN
  INSERT INTO "daily_usage" ("user_id", "day", "requests", "deliveries", "crawler_requests", "unmapped_urls")
  VALUES (OLD."user_id", OLD."latest_day", OLD."latest_day_requests", OLD."latest_day_deliveries",
    OLD."latest_day_crawler_requests", OLD."latest_day_unmapped_urls")
  ON CONFLICT ("user_id", "day") DO UPDATE SET "requests" = "requests" + excluded."requests",
    "deliveries" = "deliveries" + excluded."deliveries",
    "crawler_requests" = "crawler_requests" + excluded."crawler_requests",
    "unmapped_urls" = "unmapped_urls" + excluded."unmapped_urls";
END
`,
  },
  // websites: queue a released hostname's Cloudflare for SaaS custom hostnames for removal (custom_hostname_removals).
  {
    name: "websites_custom_hostname_removals",
    table: "websites",
    sql: `
CREATE TRIGGER "websites_custom_hostname_removals" AFTER DELETE ON "websites"
WHEN OLD."custom_hostname_ids" IS NOT NULL BEGIN
  INSERT OR IGNORE INTO "custom_hostname_removals" ("id", "hostname", "requested_at")
  SELECT "value", OLD."hostname", unixepoch('subsec') * 1000 FROM json_each(OLD."custom_hostname_ids");
END
`,
  },
];

/**
 * Tables stored WITHOUT ROWID (clustered on their primary key: one B-tree write per upsert instead of two). drizzle
 * cannot say so: a generated rebuild of one of them must add it back (schema-drift.test.ts fails until it does).
 */
export const WITHOUT_ROWID_TABLES: readonly string[] = [
  "analytics_ledger",
  "experiment_conversions",
  "experiment_exposures",
  "experiment_stats",
  "url_daily_usage",
  "url_monthly_usage",
  "visitor_goals",
];
