/**
 * @module Per-URL daily counts are kept for `URL_DAYS_KEPT_MONTHS` whole months (besides the current one); older
 * ones are summed into months (`url_monthly_usage`), so the largest table stays bounded whatever a customer's age:
 * about 13 × 31 rows per URL at most, plus one per month before. A pass walks every URL (`url_stats`, in key order)
 * a chunk at a time, each chunk in one transaction that adds its old days (a latest day kept on the `url_stats` row
 * among them) to their months, deletes them and moves the pass's cursor (`housekeeping_cursors`), so a pass cut
 * short goes on where it stopped and nothing is summed twice. A pass starts when the month turns and ends once it has walked every URL; the minute cron runs a few chunks.
 */
import type { Env } from "../env";

/** Whole months of daily rows kept per URL, besides the current month. */
export const URL_DAYS_KEPT_MONTHS = 13;
/** URLs per chunk (one transaction) and chunks per cron run. */
const URLS_PER_CHUNK = 500;
const CHUNKS_PER_RUN = 4;
/** The pass's row in `housekeeping_cursors`. */
export const URL_MONTHS_JOB = "url_days_to_months";

/** The first day kept by the day, as YYYY-MM-DD: the first of the month `URL_DAYS_KEPT_MONTHS` before now's. */
export function firstDayKept(now: Date): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - URL_DAYS_KEPT_MONTHS, 1));
  return first.toISOString().slice(0, 10);
}

interface Cursor {
  /** The first day kept that the pass rolls up to. */
  cutoff: string;
  /** The last URL done, or null before the first; `done` once every URL is. */
  userId: string | null;
  url: string | null;
  done: boolean;
}

/** The chunk of URLs after the cursor (?1 user id, ?2 URL; both null: from the first). */
const CHUNK = `chunk AS (
    SELECT user_id, url FROM url_stats
    WHERE ?1 IS NULL OR (user_id, url) > (?1, ?2)
    ORDER BY user_id, url LIMIT ${URLS_PER_CHUNK}
  )`;

/**
 * A URL not seen since before the cutoff still holds that day on its `url_stats` row: emptied, the trigger
 * `url_stats_latest_day_to_series` (db/raw.ts) adds it to its days, which the next statement sums.
 */
const CLEAR_OLD_LATEST_DAYS = `WITH ${CHUNK}
  UPDATE url_stats SET latest_day = '', latest_day_requests = 0, latest_day_deliveries = 0,
    latest_day_crawler_requests = 0
  WHERE (user_id, url) IN (SELECT user_id, url FROM chunk) AND latest_day <> '' AND latest_day < ?3`;

const ADD_MONTHS = `WITH ${CHUNK}
  INSERT INTO url_monthly_usage (user_id, url, month, requests, deliveries, crawler_requests)
  SELECT d.user_id, d.url, substr(d.day, 1, 7) || '-01', sum(d.requests), sum(d.deliveries), sum(d.crawler_requests)
  FROM chunk JOIN url_daily_usage d ON d.user_id = chunk.user_id AND d.url = chunk.url AND d.day < ?3
  WHERE true GROUP BY d.user_id, d.url, substr(d.day, 1, 7)
  ON CONFLICT (user_id, url, month) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, crawler_requests = crawler_requests + excluded.crawler_requests`;

const DELETE_DAYS = `WITH ${CHUNK}
  DELETE FROM url_daily_usage
  WHERE (user_id, url) IN (SELECT user_id, url FROM chunk) AND day < ?3`;

const MOVE_CURSOR = `WITH ${CHUNK}
  INSERT INTO housekeeping_cursors (job, position)
  SELECT '${URL_MONTHS_JOB}', json_object('cutoff', ?3, 'userId', last.user_id, 'url', last.url, 'done', last.user_id IS NULL)
  FROM (SELECT NULL AS user_id, NULL AS url WHERE NOT EXISTS (SELECT 1 FROM chunk)
    UNION ALL SELECT * FROM (SELECT user_id, url FROM chunk ORDER BY user_id DESC, url DESC LIMIT 1)) AS last
  WHERE true
  ON CONFLICT (job) DO UPDATE SET position = excluded.position`;

async function readCursor(d1: D1Database, cutoff: string): Promise<Cursor> {
  const position = await d1
    .prepare(`SELECT position FROM housekeeping_cursors WHERE job = ?`)
    .bind(URL_MONTHS_JOB)
    .first<string>("position");
  const cursor = position ? (JSON.parse(position) as Cursor) : null;
  // A new month starts a new pass; one cut short by it is covered, since the new pass rolls up everything older.
  if (!cursor || cursor.cutoff !== cutoff) return { cutoff, userId: null, url: null, done: false };
  return { ...cursor, done: Boolean(cursor.done) };
}

/** Runs up to `chunks` chunks of the month's pass; answers the daily rows summed into months. */
export async function rollUpOldUrlDays(env: Env, now: Date, chunks = CHUNKS_PER_RUN): Promise<number> {
  const d1 = env.DB;
  const cutoff = firstDayKept(now);
  let rolled = 0;
  for (let i = 0; i < chunks; i++) {
    const cursor = await readCursor(d1, cutoff);
    if (cursor.done) break;
    const bind = (sql: string) => d1.prepare(sql).bind(cursor.userId, cursor.url, cutoff);
    const [, , deleted] = await d1.batch([
      bind(CLEAR_OLD_LATEST_DAYS),
      bind(ADD_MONTHS),
      bind(DELETE_DAYS),
      bind(MOVE_CURSOR),
    ]);
    rolled += deleted!.meta.changes;
  }
  return rolled;
}
