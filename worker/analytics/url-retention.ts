/**
 * @module Per-URL rows of URLs no mapping uses go once nobody has seen the URL for `UNSEEN_URL_RETENTION_DAYS`: the
 * `url_stats` row (its trigram index entry with it, by trigger), its days (`url_daily_usage`) and months
 * (`url_monthly_usage`). Mapped URLs and the customer's `OTHER_PAGES` row stay. So what strangers can add per
 * customer is bounded: at most `UNMAPPED_URLS_PER_DAY` URLs a day (analytics/fold.ts), each kept this many days
 * after its last view (docs/scaling.md). A pass a day walks the customers in id order, a chunk of stale URLs at a
 * time (one transaction each, its cursor in `housekeeping_cursors`), so a pass cut short goes on where it stopped;
 * the minute cron runs a few chunks until the day's pass is done.
 */
import { OTHER_PAGES } from "#contract/responses";
import type { Env } from "../env";

/** How long a URL without a mapping keeps its rows after its last view. */
export const UNSEEN_URL_RETENTION_DAYS = 30;
/** Stale URLs per chunk (one transaction) and chunks per cron run. */
const URLS_PER_CHUNK = 500;
const CHUNKS_PER_RUN = 4;
/** The pass's row in `housekeeping_cursors`. */
export const UNSEEN_URLS_JOB = "unseen_urls";
const HOUR_MS = 3_600_000;

/**
 * The chunk: stale URLs without a mapping of the customers from ?1 on (by id), ?2 the first hour still kept. Read
 * through `users` so that each customer is one probe of `url_stats_last_accessed_hour_idx`, not a walk of their
 * rows.
 */
const CHUNK = `chunk AS (
    SELECT s.user_id, s.url FROM users u JOIN url_stats s ON s.user_id = u.id
    WHERE u.id >= ?1 AND s.last_accessed_hour < ?2 AND s.url <> '${OTHER_PAGES}'
      AND NOT EXISTS (SELECT 1 FROM url_mappings m WHERE m.user_id = s.user_id AND m.normalized_url = s.url)
    ORDER BY u.id LIMIT ${URLS_PER_CHUNK}
  )`;

const deleteChunkOf = (table: string) => `WITH ${CHUNK}
  DELETE FROM ${table} WHERE (user_id, url) IN (SELECT user_id, url FROM chunk)`;

/** Where the next chunk starts: at the chunk's last customer (who may have more), or done after an empty chunk. */
const MOVE_CURSOR = `WITH ${CHUNK}
  INSERT INTO housekeeping_cursors (job, position)
  SELECT '${UNSEEN_URLS_JOB}', json_object('day', ?3, 'userId', coalesce(max(user_id), ''), 'done', count(*) = 0)
  FROM chunk WHERE true
  ON CONFLICT (job) DO UPDATE SET position = excluded.position`;

interface Cursor {
  /** The UTC day (YYYY-MM-DD) of the pass. */
  day: string;
  /** The customer the next chunk starts at ('' from the first). */
  userId: string;
  done: boolean;
}

async function readCursor(d1: D1Database, day: string): Promise<Cursor> {
  const position = await d1
    .prepare(`SELECT position FROM housekeeping_cursors WHERE job = ?`)
    .bind(UNSEEN_URLS_JOB)
    .first<string>("position");
  const cursor = position ? (JSON.parse(position) as Cursor) : null;
  if (!cursor || cursor.day !== day) return { day, userId: "", done: false };
  return { ...cursor, done: Boolean(cursor.done) };
}

/** Runs up to `chunks` chunks of the day's pass; answers the URLs whose rows were deleted. */
export async function purgeUnseenUrls(env: Env, now: Date, chunks = CHUNKS_PER_RUN): Promise<number> {
  const d1 = env.DB;
  const day = now.toISOString().slice(0, 10);
  const firstHourKept = Math.floor((now.getTime() - UNSEEN_URL_RETENTION_DAYS * 86_400_000) / HOUR_MS);
  let purged = 0;
  for (let i = 0; i < chunks; i++) {
    const cursor = await readCursor(d1, day);
    if (cursor.done) break;
    const deleteChunk = (table: string) => d1.prepare(deleteChunkOf(table)).bind(cursor.userId, firstHourKept);
    // The cursor moves before the url_stats rows go: every statement reads the same chunk.
    const [, , , deleted] = await d1.batch([
      deleteChunk("url_daily_usage"),
      deleteChunk("url_monthly_usage"),
      d1.prepare(MOVE_CURSOR).bind(cursor.userId, firstHourKept, day),
      d1.prepare(`${deleteChunkOf("url_stats")} RETURNING url`).bind(cursor.userId, firstHourKept),
    ]);
    // Not `meta.changes`: it counts the search index's rows the trigger deletes too.
    purged += deleted!.results.length;
  }
  return purged;
}
