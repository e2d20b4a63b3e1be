/**
 * @module How long the ledger of counted page views stays in D1. Raw events live in the R2 archive for good; their
 * ids in D1 (`analytics_ledger`) for `ANALYTICS_RAW_RETENTION_DAYS` (default 7, at least 1: the ledger must outlive
 * every redelivery). Older rows are deleted in bounded chunks by the daily cron and by every analytics batch: a
 * batch writes at most one row per 10 seconds its views span and deletes up to 200 expired rows, so the purge keeps
 * pace with any traffic, and the cron clears what is left once traffic stops. The cron also moves the legacy
 * `analytics` rows to R2.
 */
import { asc, lte, sql } from "drizzle-orm";
import { createDb } from "../db/client";
import { analytics, analyticsLedger, visitorGoals } from "../db/schema";
import type { Env } from "../env";
import { archiveEvents } from "./archive";

const DEFAULT_DAYS = 7;
const DAY_MS = 86_400_000;
/** Ledger rows per DELETE (each holds one batch's ids of 10 seconds) and DELETEs per run. */
const PURGE_CHUNK = 1_000;
const PURGE_CHUNKS_PER_RUN = 50;
/** Legacy rows per archive object and objects per run. */
const LEGACY_CHUNK = 1_000;
const LEGACY_CHUNKS_PER_RUN = 20;

export function rawRetentionDays(env: Env): number {
  const raw = env.ANALYTICS_RAW_RETENTION_DAYS;
  if (raw === undefined || raw === "") return DEFAULT_DAYS;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1) {
    console.warn(`ANALYTICS_RAW_RETENTION_DAYS=${JSON.stringify(raw)} is not a whole number of days >= 1; using 7`);
    return DEFAULT_DAYS;
  }
  return days;
}

/** Slack between a view's ledger span and the window's edge, for a purge running on a clock a little ahead. */
const LEDGER_EDGE_MS = 3_600_000;

/**
 * The oldest timestamp a consumer still counts: an older view's ids may have left the ledger, so a redelivery of
 * it (a dead-letter replay after the window) could count it twice. Such views stay in the R2 archive.
 */
export const countableSince = (env: Env, now: number) => now - rawRetentionDays(env) * DAY_MS + LEDGER_EDGE_MS;

/** Expired rows a batch deletes: more than it writes (one per 10 seconds its views span). */
export const PURGE_ROWS_PER_BATCH = 200;
/** Expired rows the daily cron deletes at most: 50 chunks of 1,000. */
export const PURGE_ROWS_PER_CRON = PURGE_CHUNK * PURGE_CHUNKS_PER_RUN;

/** Deletes ledger rows older than the window, at most `maxRows`; answers the rows deleted. Its key starts with the second. */
export async function purgeRawWindow(env: Env, now: Date, maxRows = PURGE_ROWS_PER_CRON): Promise<number> {
  const db = createDb(env.DB);
  const before = Math.floor((now.getTime() - rawRetentionDays(env) * DAY_MS) / 1000);
  let deleted = 0;
  while (deleted < maxRows) {
    const chunk = Math.min(PURGE_CHUNK, maxRows - deleted);
    const result = await db.run(sql`delete from ${analyticsLedger} where (second, batch) in (
      select second, batch from ${analyticsLedger} where ${analyticsLedger.second} < ${before} limit ${chunk})`);
    deleted += result.meta.changes;
    if (result.meta.changes < chunk) break;
  }
  return deleted;
}

/** Moves rows of the legacy per-request `analytics` table to the archive, oldest first; answers how many. */
export async function archiveLegacyRows(env: Env): Promise<number> {
  const db = createDb(env.DB);
  let moved = 0;
  for (let chunk = 0; chunk < LEGACY_CHUNKS_PER_RUN; chunk++) {
    const rows = await db.select().from(analytics).orderBy(asc(analytics.id)).limit(LEGACY_CHUNK);
    if (rows.length === 0) break;
    const events = rows.map((r) => ({ ...r, timestamp: r.timestamp.getTime(), legacy: true }));
    await archiveEvents(env, `raw/legacy/${rows[0]!.id}-${rows.at(-1)!.id}.ndjson.gz`, events);
    // Nothing writes the table any more: the chunk is exactly the rows up to its last id.
    await db.delete(analytics).where(lte(analytics.id, rows.at(-1)!.id));
    moved += rows.length;
  }
  return moved;
}

/** How long a visitor's goal waits for the view that would convert it (docs/experiments.md). */
export const GOAL_RETENTION_DAYS = 90;

/**
 * Deletes visitors' goals not reached again for `GOAL_RETENTION_DAYS`, at most `maxRows` (`visitor_goals_last_at_idx`
 * finds them); answers the rows deleted. Conversions already counted stay: they are rows of their own.
 */
export async function purgeVisitorGoals(env: Env, now: Date, maxRows = PURGE_ROWS_PER_CRON): Promise<number> {
  const db = createDb(env.DB);
  const before = now.getTime() - GOAL_RETENTION_DAYS * DAY_MS;
  let deleted = 0;
  while (deleted < maxRows) {
    const chunk = Math.min(PURGE_CHUNK, maxRows - deleted);
    const result = await db.run(sql`delete from ${visitorGoals} where (user_id, visitor, goal) in (
      select user_id, visitor, goal from ${visitorGoals} where ${visitorGoals.lastAt} < ${before} limit ${chunk})`);
    deleted += result.meta.changes;
    if (result.meta.changes < chunk) break;
  }
  return deleted;
}

/**
 * How long a goal of a visitor no experiment of the customer exposed waits for the view that would (they travel
 * apart, so either may be counted first); the purge looks back a week past it, in case the cron missed days.
 */
export const UNEXPOSED_GOAL_HOURS = 24;
const UNEXPOSED_LOOKBACK_DAYS = 7;

/**
 * Deletes goals older than `UNEXPOSED_GOAL_HOURS` whose visitor no experiment of the customer exposed (so only
 * exposed visitors' goals stay), at most `maxRows`, in chunks; answers the rows deleted.
 */
export async function purgeUnexposedGoals(env: Env, now: Date, maxRows = PURGE_ROWS_PER_CRON): Promise<number> {
  const before = now.getTime() - UNEXPOSED_GOAL_HOURS * 3_600_000;
  const since = before - UNEXPOSED_LOOKBACK_DAYS * DAY_MS;
  let deleted = 0;
  while (deleted < maxRows) {
    const chunk = Math.min(PURGE_CHUNK, maxRows - deleted);
    const result = await env.DB.prepare(
      `DELETE FROM visitor_goals WHERE (user_id, visitor, goal) IN (
        SELECT g.user_id, g.visitor, g.goal FROM visitor_goals g WHERE g.last_at >= ?1 AND g.last_at < ?2
          AND NOT EXISTS (SELECT 1 FROM experiment_exposures x WHERE x.user_id = g.user_id AND x.visitor = g.visitor)
        LIMIT ?3)`,
    )
      .bind(since, before, chunk)
      .run();
    deleted += result.meta.changes;
    if (result.meta.changes < chunk) break;
  }
  return deleted;
}

/** How long an experiment's rows stay once no mapping runs it (docs/experiments.md "Bounds"). */
export const EXPERIMENT_RETENTION_DAYS = 90;
/** Runs the purge looks at per query. */
const RUNS_PER_QUERY = 100;
/** An experiment's row tables, each keyed by the experiment first: a chunk is one range of its key. */
const EXPERIMENT_ROWS = [
  ["experiment_exposures", "experiment, visitor"],
  ["experiment_conversions", "experiment, visitor, goal"],
  ["experiment_stats", "experiment, variant, goal"],
  ["experiment_segment_stats", "experiment, dimension, variant, goal, value"],
] as const;

/**
 * Deletes the rows of experiment runs that no mapping runs any more and that nobody was seen in (nor found running,
 * below) for `EXPERIMENT_RETENTION_DAYS`, in chunks of `PURGE_CHUNK` rows, at most `maxRows`; answers the rows
 * deleted. A run found still running is marked seen now, so that the oldest runs are always the ones to look at.
 * A run's own row (`experiment_runs`) goes last, once its rows are gone, so an interrupted purge is taken up again.
 */
export async function purgeEndedExperiments(env: Env, now: Date, maxRows = PURGE_ROWS_PER_CRON): Promise<number> {
  const d1 = env.DB;
  const before = now.getTime() - EXPERIMENT_RETENTION_DAYS * DAY_MS;
  let deleted = 0;
  while (deleted < maxRows) {
    const { results: runs } = await d1
      .prepare(
        `SELECT r.experiment, EXISTS (SELECT 1 FROM url_mappings m
          WHERE m.id = r.mapping_id AND (m.experiment ->> '$.id' = r.experiment OR m.holdout ->> '$.id' = r.experiment))
          AS running
        FROM experiment_runs r WHERE r.last_seen < ?1 ORDER BY r.last_seen LIMIT ?2`,
      )
      .bind(before, RUNS_PER_QUERY)
      .all<{ experiment: string; running: number }>();
    if (runs.length === 0) break;
    const running = runs.filter((run) => run.running).map((run) => run.experiment);
    if (running.length > 0) {
      await d1
        .prepare(`UPDATE experiment_runs SET last_seen = ?1 WHERE experiment IN (SELECT value FROM json_each(?2))`)
        .bind(now.getTime(), JSON.stringify(running))
        .run();
    }
    for (const { experiment } of runs.filter((run) => !run.running)) {
      for (const [table, key] of EXPERIMENT_ROWS) {
        while (deleted < maxRows) {
          const chunk = Math.min(PURGE_CHUNK, maxRows - deleted);
          const result = await d1
            .prepare(
              `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE experiment = ?1 LIMIT ?2)`,
            )
            .bind(experiment, chunk)
            .run();
          deleted += result.meta.changes;
          if (result.meta.changes < chunk) break;
        }
      }
      if (deleted >= maxRows) return deleted;
      await d1.prepare(`DELETE FROM experiment_runs WHERE experiment = ?1`).bind(experiment).run();
    }
  }
  return deleted;
}
