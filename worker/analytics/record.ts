/**
 * @module Counts a batch of analytics events in D1 with one `batch()` (one transaction): one upsert per counter
 * row the batch touches (customer and URL, customer, URL and day, customer and day, customer, mapping, visitor
 * and day), never one per event, and the batch's events into `analytics_batches`, the ledger of counted message
 * ids and the raw window.
 *
 * The events travel as one JSON parameter, so every statement binds at most four values whatever the batch size.
 * Every statement counts only the `fresh` events: those of existing customers whose id is not in the ledger rows
 * of their second. The ledger rows (one per second of the events' timestamps) are written last, in the same
 * transaction, so a redelivered event is recognised and a failed batch leaves nothing behind. A ledger row keeps
 * the counted ids as JSON (SQL looks them up) and the batch's events of its second as gzipped JSON, about a sixth
 * of their text: the raw window is the largest thing in D1 (docs/scaling.md).
 *
 * What strangers can spend and fill (docs/analytics.md):
 * - **The plan's quota.** A view spends it (`billed`) unless a known crawler asked, or the visitor (a daily hash of
 *   their address) has already spent `VISITOR_DAILY_QUOTA` of this customer's today; unbilled views are counted
 *   apart. Visitors are counted (`visitor_daily_usage`) only for customers whose plan limits deliveries or
 *   requests (`metered`): for the others there is nothing to spend.
 * - **Per-URL rows.** A URL gets rows of its own (`url_stats`, `url_daily_usage`) when the customer has a mapping
 *   there, when it has a row today already, or as one of the first `UNMAPPED_URLS_PER_DAY` new URLs of the
 *   customer's day; every other view counts in the day's `OTHER_PAGES` row.
 * Statements read what later statements of the batch write, so their order matters: the day's counters first
 * (`unmapped_urls_before` keeps the count from before this batch for the URL statements), the visitors last.
 */
import { isCrawler } from "./crawlers";
import { normalizeUrl } from "#contract/normalize-url";
import { OTHER_PAGES } from "#contract/responses";
import { utcDay } from "../lib/days";
import { gzip } from "../lib/gzip";
import type { AnalyticsMessage } from "../messages/analytics";

/** A visitor's views a day that spend a customer's quota; the rest are counted but not billed. */
export const VISITOR_DAILY_QUOTA = 500;
/** New URLs without a mapping that get rows of their own per customer and day. */
export const UNMAPPED_URLS_PER_DAY = 10_000;

/** A message as it is counted and kept: its normalised URL, UTC day, a known crawler's, and its customer metered. */
export interface RawEvent extends AnalyticsMessage {
  normalizedUrl: string;
  day: string;
  crawler: boolean;
  /** The customer's plan limits deliveries or requests: each visitor spends at most their share of it. */
  metered: boolean;
}

export function toRawEvent(message: AnalyticsMessage, metered: boolean): RawEvent {
  return {
    ...message,
    normalizedUrl: normalizeUrl(message.url),
    day: utcDay(message.timestamp),
    crawler: isCrawler(message.userAgent),
    metered,
  };
}

const FRESH = `WITH incoming AS (
    SELECT value AS event, value ->> 'id' AS id, value ->> 'userId' AS user_id, value ->> 'normalizedUrl' AS url,
      value ->> 'mappingId' AS mapping_id, value ->> 'delivered' AS delivered, value ->> 'timestamp' AS ts,
      value ->> 'day' AS day, coalesce(value ->> 'crawler', 0) AS crawler, (value ->> 'timestamp') / 1000 AS second,
      value ->> 'visitor' AS visitor, coalesce(value ->> 'metered', 0) AS metered
    FROM json_each(?1)
  ),
  fresh AS (
    SELECT * FROM incoming
    WHERE EXISTS (SELECT 1 FROM users WHERE users.id = incoming.user_id)
      AND incoming.id NOT IN (
        SELECT counted.value FROM analytics_batches ledger, json_each(ledger.message_ids) counted
        WHERE ledger.second IN (SELECT second FROM incoming))
  )`;

/** Which views spend the plan's quota: not a crawler's, and within the visitor's first views of the day. */
const BILLING = `${FRESH},
  capping AS (SELECT fresh.*, (crawler = 0 AND metered = 1 AND visitor IS NOT NULL) AS capped FROM fresh),
  billing AS (
    SELECT capping.*, CASE
      WHEN crawler = 1 THEN 0
      WHEN capped = 0 THEN 1
      WHEN coalesce((SELECT views FROM visitor_daily_usage v
          WHERE v.day = capping.day AND v.user_id = capping.user_id AND v.visitor = capping.visitor), 0)
        + row_number() OVER (PARTITION BY capped, day, user_id, visitor ORDER BY ts, id) <= ${VISITOR_DAILY_QUOTA}
        THEN 1
      ELSE 0 END AS billed
    FROM capping
  )`;

/** Whether each view's URL has rows already: a mapping of the customer's there, or a row today. */
const KNOWN = `${FRESH},
  placed AS (
    SELECT fresh.*, (
      EXISTS (SELECT 1 FROM url_mappings m WHERE m.user_id = fresh.user_id AND m.normalized_url = fresh.url)
      OR EXISTS (SELECT 1 FROM url_daily_usage u
        WHERE u.user_id = fresh.user_id AND u.url = fresh.url AND u.day = fresh.day)) AS known
    FROM fresh
  )`;

/** The row each view counts in: its URL's, or the day's "other pages" once the day's new URLs are used up. */
const ROWS = `${KNOWN},
  ranked AS (
    SELECT placed.*, dense_rank() OVER (PARTITION BY known, user_id, day ORDER BY url) AS new_rank FROM placed
  ),
  counted AS (
    SELECT ranked.*, CASE
      WHEN known THEN url
      WHEN new_rank + coalesce((SELECT unmapped_urls_before FROM daily_usage d
          WHERE d.user_id = ranked.user_id AND d.day = ranked.day), 0) <= ${UNMAPPED_URLS_PER_DAY} THEN url
      ELSE '${OTHER_PAGES}' END AS row_url
    FROM ranked
  )`;

// An upsert from a SELECT needs its WHERE (even `WHERE true`) for SQLite to read ON CONFLICT right.
const COUNT_DAY = `${KNOWN}
  INSERT INTO daily_usage (user_id, day, requests, deliveries, crawler_requests, unmapped_urls, unmapped_urls_before)
  SELECT user_id, day, count(*), sum(delivered), sum(crawler),
    min(${UNMAPPED_URLS_PER_DAY}, count(DISTINCT CASE WHEN NOT known THEN url END)), 0
  FROM placed WHERE true GROUP BY user_id, day
  ON CONFLICT (user_id, day) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, crawler_requests = crawler_requests + excluded.crawler_requests,
    unmapped_urls_before = unmapped_urls,
    unmapped_urls = min(${UNMAPPED_URLS_PER_DAY}, unmapped_urls + excluded.unmapped_urls)`;

const COUNT_URL = `${ROWS}
  INSERT INTO url_stats (user_id, url, hits, deliveries, last_accessed)
  SELECT user_id, row_url, count(*), sum(delivered), max(ts) FROM counted WHERE true GROUP BY user_id, row_url
  ON CONFLICT (user_id, url) DO UPDATE SET hits = hits + excluded.hits,
    deliveries = deliveries + excluded.deliveries, last_accessed = max(last_accessed, excluded.last_accessed)`;

const COUNT_URL_DAY = `${ROWS}
  INSERT INTO url_daily_usage (user_id, url, day, requests, deliveries, crawler_requests)
  SELECT user_id, row_url, day, count(*), sum(delivered), sum(crawler) FROM counted WHERE true
  GROUP BY user_id, row_url, day
  ON CONFLICT (user_id, url, day) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, crawler_requests = crawler_requests + excluded.crawler_requests`;

const COUNT_CUSTOMER = `${BILLING}
  INSERT INTO usage_counters (user_id, total_requests, period_requests, period_deliveries, period_unbilled_requests,
    period_unbilled_deliveries)
  SELECT user_id, count(*), sum(billed), sum(billed * delivered), sum(1 - billed), sum((1 - billed) * delivered)
  FROM billing WHERE true GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
    period_requests = period_requests + excluded.period_requests,
    period_deliveries = period_deliveries + excluded.period_deliveries,
    period_unbilled_requests = period_unbilled_requests + excluded.period_unbilled_requests,
    period_unbilled_deliveries = period_unbilled_deliveries + excluded.period_unbilled_deliveries`;

const COUNT_MAPPING = `${FRESH}
  INSERT INTO mapping_stats (mapping_id, requests, deliveries, last_accessed)
  SELECT mapping_id, count(*), sum(delivered), max(ts) FROM fresh
  WHERE mapping_id IS NOT NULL AND EXISTS (SELECT 1 FROM url_mappings WHERE url_mappings.id = fresh.mapping_id)
  GROUP BY mapping_id
  ON CONFLICT (mapping_id) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, last_accessed = max(last_accessed, excluded.last_accessed)`;

/** Last of the counters: every statement that bills reads the visitors' views from before this batch. */
const COUNT_VISITORS = `${BILLING}
  INSERT INTO visitor_daily_usage (day, user_id, visitor, views)
  SELECT day, user_id, visitor, count(*) FROM billing WHERE capped GROUP BY day, user_id, visitor
  ON CONFLICT (day, user_id, visitor) DO UPDATE SET views = views + excluded.views`;

const COUNT_FRESH = `${FRESH} SELECT count(*) AS counted FROM fresh`;

/** The ledger row of one second (?3) of the batch (?2), with its events gzipped (?4); none when nothing is fresh. */
const KEEP_RAW = `${FRESH}
  INSERT INTO analytics_batches (second, batch, message_ids, events_gzip)
  SELECT second, ?2, json_group_array(id), ?4 FROM fresh WHERE second = ?3 GROUP BY second`;

const COUNTERS_AFTER = `SELECT user_id AS userId, period_requests AS periodRequests,
    period_deliveries AS periodDeliveries
  FROM usage_counters WHERE user_id IN (SELECT value ->> 'userId' FROM json_each(?1))`;

export interface PeriodCounters {
  userId: string;
  periodRequests: number;
  periodDeliveries: number;
}

export interface Recorded {
  /** Events counted now (the others were counted before, or belong to no customer). */
  counted: number;
  /** The batch's customers' period counters after it. */
  counters: PeriodCounters[];
}

/** The events by the second of their timestamps, as the ledger keeps them (SQL: `timestamp / 1000`). */
function bySecond(events: readonly RawEvent[]): Map<number, RawEvent[]> {
  const seconds = new Map<number, RawEvent[]>();
  for (const event of events) {
    const second = Math.floor(event.timestamp / 1000);
    const ofSecond = seconds.get(second);
    if (ofSecond) ofSecond.push(event);
    else seconds.set(second, [event]);
  }
  return seconds;
}

/** Counts the events (at most one queue batch: their JSON stays far below D1's 2 MB per value). */
export async function recordAnalytics(d1: D1Database, batchId: string, events: readonly RawEvent[]): Promise<Recorded> {
  if (events.length === 0) return { counted: 0, counters: [] };
  const json = JSON.stringify(events);
  const statement = (sql: string) => d1.prepare(sql).bind(json);
  const ledgerRows = await Promise.all(
    [...bySecond(events)].map(async ([second, ofSecond]) =>
      d1.prepare(KEEP_RAW).bind(json, batchId, second, await gzip(JSON.stringify(ofSecond))),
    ),
  );
  // In this order: see the module's note.
  const counting = [
    statement(COUNT_DAY),
    statement(COUNT_URL),
    statement(COUNT_URL_DAY),
    statement(COUNT_CUSTOMER),
    statement(COUNT_MAPPING),
    statement(COUNT_VISITORS),
    statement(COUNT_FRESH),
  ];
  const results = await d1.batch<Record<string, unknown>>([...counting, ...ledgerRows, statement(COUNTERS_AFTER)]);
  const [fresh, after] = [results[counting.length - 1]!, results.at(-1)!];
  return {
    counted: Number(fresh.results[0]!.counted),
    counters: after.results as unknown as PeriodCounters[],
  };
}
