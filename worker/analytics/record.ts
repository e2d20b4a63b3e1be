/**
 * @module Counts a batch of analytics events in D1 with one `batch()` (one transaction): one upsert per counter
 * row the batch touches (customer and URL, customer, URL and day, customer and day, customer, mapping), never one
 * per event, and the batch's events into `analytics_batches`, the ledger of counted message ids and the raw
 * window.
 *
 * The events travel as one JSON parameter, so every statement binds at most four values whatever the batch size.
 * Every statement counts only the `fresh` events: those of existing customers whose id is not in the ledger rows
 * of their second. The ledger rows (one per second of the events' timestamps) are written last, in the same
 * transaction, so a redelivered event is recognised and a failed batch leaves nothing behind. A ledger row keeps
 * the counted ids as JSON (SQL looks them up) and the batch's events of its second as gzipped JSON, about a sixth
 * of their text: the raw window is the largest thing in D1 (docs/scaling.md).
 */
import { isCrawler } from "../contract/crawlers";
import { normalizeUrl } from "../contract/normalize-url";
import { gzip } from "../lib/gzip";
import type { AnalyticsMessage } from "./message";

/** A message as it is counted and kept: with its normalised URL, UTC day, and whether a known crawler asked. */
export interface RawEvent extends AnalyticsMessage {
  normalizedUrl: string;
  day: string;
  crawler: boolean;
}

export function utcDay(timestamp: number): string {
  return new Date(timestamp).toISOString().slice(0, 10);
}

export function toRawEvent(message: AnalyticsMessage): RawEvent {
  return {
    ...message,
    normalizedUrl: normalizeUrl(message.url),
    day: utcDay(message.timestamp),
    crawler: isCrawler(message.userAgent),
  };
}

const FRESH = `WITH incoming AS (
    SELECT value AS event, value ->> 'id' AS id, value ->> 'userId' AS user_id, value ->> 'normalizedUrl' AS url,
      value ->> 'mappingId' AS mapping_id, value ->> 'delivered' AS delivered, value ->> 'timestamp' AS ts,
      value ->> 'day' AS day, coalesce(value ->> 'crawler', 0) AS crawler, (value ->> 'timestamp') / 1000 AS second
    FROM json_each(?1)
  ),
  fresh AS (
    SELECT * FROM incoming
    WHERE EXISTS (SELECT 1 FROM users WHERE users.id = incoming.user_id)
      AND incoming.id NOT IN (
        SELECT counted.value FROM analytics_batches ledger, json_each(ledger.message_ids) counted
        WHERE ledger.second IN (SELECT second FROM incoming))
  )`;

// An upsert from a SELECT needs its WHERE (even `WHERE true`) for SQLite to read ON CONFLICT right.
const COUNT_URL = `${FRESH}
  INSERT INTO url_stats (user_id, url, hits, deliveries, last_accessed)
  SELECT user_id, url, count(*), sum(delivered), max(ts) FROM fresh WHERE true GROUP BY user_id, url
  ON CONFLICT (user_id, url) DO UPDATE SET hits = hits + excluded.hits,
    deliveries = deliveries + excluded.deliveries, last_accessed = max(last_accessed, excluded.last_accessed)`;

const COUNT_URL_DAY = `${FRESH}
  INSERT INTO url_daily_usage (user_id, url, day, requests, deliveries, crawler_requests)
  SELECT user_id, url, day, count(*), sum(delivered), sum(crawler) FROM fresh WHERE true GROUP BY user_id, url, day
  ON CONFLICT (user_id, url, day) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, crawler_requests = crawler_requests + excluded.crawler_requests`;

const COUNT_DAY = `${FRESH}
  INSERT INTO daily_usage (user_id, day, requests, deliveries, crawler_requests)
  SELECT user_id, day, count(*), sum(delivered), sum(crawler) FROM fresh WHERE true GROUP BY user_id, day
  ON CONFLICT (user_id, day) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, crawler_requests = crawler_requests + excluded.crawler_requests`;

const COUNT_CUSTOMER = `${FRESH}
  INSERT INTO usage_counters (user_id, total_requests, period_requests, period_deliveries)
  SELECT user_id, count(*), count(*), sum(delivered) FROM fresh WHERE true GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
    period_requests = period_requests + excluded.period_requests,
    period_deliveries = period_deliveries + excluded.period_deliveries`;

const COUNT_MAPPING = `${FRESH}
  INSERT INTO mapping_stats (mapping_id, requests, deliveries, last_accessed)
  SELECT mapping_id, count(*), sum(delivered), max(ts) FROM fresh
  WHERE mapping_id IS NOT NULL AND EXISTS (SELECT 1 FROM url_mappings WHERE url_mappings.id = fresh.mapping_id)
  GROUP BY mapping_id
  ON CONFLICT (mapping_id) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, last_accessed = max(last_accessed, excluded.last_accessed)`;

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
  const counting = [
    statement(COUNT_URL),
    statement(COUNT_URL_DAY),
    statement(COUNT_DAY),
    statement(COUNT_CUSTOMER),
    statement(COUNT_MAPPING),
    statement(COUNT_FRESH),
  ];
  const results = await d1.batch<Record<string, unknown>>([...counting, ...ledgerRows, statement(COUNTERS_AFTER)]);
  const [fresh, after] = [results[counting.length - 1]!, results.at(-1)!];
  return {
    counted: Number(fresh.results[0]!.counted),
    counters: after.results as unknown as PeriodCounters[],
  };
}
