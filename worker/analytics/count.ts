/**
 * @module Counting: a range of pending rows into the counters, in one `batch()` (one transaction) with the statements
 * that close the range (deleting it, or keeping what a reducer is still owed: handoff.ts). It counts the reducers'
 * settled sums (reduced = 1) and the experiments' events; the page views in consumers' rows are the reducers' to sum
 * first (handoff.ts). One upsert per counter row the range touches (customer, with the counts of their newest day;
 * customer and an older day; customer and URL, with the counts of the URL's newest day and of its exact mapping;
 * customer, URL and an older day; any other mapping), never one per view or batch. Before a range is counted its
 * customers' billing is brought up to now (batch-customers.ts), so its views count in the period they belong to;
 * after it, the delivery state of each customer whose limit it reached (or lifted) is written.
 *
 * This is the one home of what a view spends (docs/analytics.md):
 * - **The plan's quota.** A view spends it unless a known crawler asked, or its visitor has already spent their
 *   day's budget of this customer's (a share of their limit: the reducer bills them, reducer-visitors.ts, for
 *   customers whose plan limits deliveries or requests); a settled sum carries its customer's views that spent
 *   none (`unbilled`), counted apart (`BILLING`).
 * - **Per-URL rows.** A URL gets rows of its own (`url_stats`, `url_daily_usage`) when the customer has a mapping
 *   there, when it has a row today already, or as one of the first `UNMAPPED_URLS_PER_DAY` new URLs of the
 *   customer's day of at most `UNMAPPED_URL_MAX_LENGTH` characters; every other view counts in the day's
 *   `OTHER_PAGES` row. Rows of URLs without a mapping not seen for a while are purged (url-retention.ts).
 * Statements read what earlier statements of the count wrote, so their order matters: the customer's row and their
 * older days first (`latest_day_unmapped_urls_before` and `unmapped_urls_before` keep the counts from before this
 * count for the URL statements), the URL rows before their series.
 */
import { experimentVisitorCap } from "#contract/experiments";
import { OTHER_PAGES } from "#contract/responses";
import type { Env } from "../env";
import { deliveryLimitReached, smallestLimitOf, type DeliveryLimitState } from "../models/limits";
import { syncCustomerState } from "../delivery/sync";
import { loadBatchCustomers } from "./batch-customers";
import { countedCustomer, experimentCounting } from "./experiment-fold";
import { UNMAPPED_URL_MAX_LENGTH, UNMAPPED_URLS_PER_DAY } from "../models/url-rows";

/** Where a URL's views count (models/url-rows.ts, which the readers of held counts share). */
export { UNMAPPED_URLS_PER_DAY, UNMAPPED_URL_MAX_LENGTH };
/** In the statements over `placed`: the URL, without a mapping or rows that day, is too long for rows of its own. */
const TOO_LONG_FOR_A_ROW = `length(url) > ${UNMAPPED_URL_MAX_LENGTH}`;

/**
 * The reducers' settled sums (`HeldSum`, messages/analytics.ts) in pending rows ?1 to ?2 of existing customers: each
 * counts as `n` views of which `delivered` were delivered, `unbilled` of its customer's views (`unbilledDelivered`
 * delivered) spent no quota. A consumer's row (reduced = 0) holds views, which `handOff` gives the reducers.
 */
const FRESH = `WITH fresh AS (
    SELECT v.value ->> 'userId' AS user_id, v.value ->> 'url' AS url, v.value ->> 'mappingId' AS mapping_id,
      v.value ->> 'delivered' AS delivered, v.value ->> 'timestamp' AS ts, v.value ->> 'day' AS day,
      v.value ->> 'crawler' AS crawler, v.value ->> 'n' AS n, coalesce(v.value ->> 'unbilled', 0) AS unbilled,
      coalesce(v.value ->> 'unbilledDelivered', 0) AS unbilled_delivered
    FROM analytics_pending p, json_each(p.events) v
    WHERE p.seq BETWEEN ?1 AND ?2 AND p.reduced = 1
      AND EXISTS (SELECT 1 FROM users WHERE users.id = v.value ->> 'userId')
      AND ${countedCustomer("v.value ->> 'userId'")}
  )`;

/** What spends the plan's quota: the views not by a known crawler, but those of visitors past their budget. */
const BILLING = `billing AS (
    SELECT user_id, n, delivered, n * (1 - crawler) - unbilled AS requests,
      delivered * (1 - crawler) - unbilled_delivered AS deliveries
    FROM fresh
  )`;

/**
 * The views summed per customer, URL and day, and whether that URL has rows already: a mapping of the customer's
 * there, or counts that day (in `url_daily_usage`, or as its `url_stats` row's latest day). Every later statement
 * works on these sums, one row per URL, not on the views. What `known` reads stays as it was before the fold's
 * counting: a latest day set by this fold (`latest_day_seq` in its range, ?1 to ?2) does not count, the day it
 * replaced reads the same from `url_daily_usage` (the trigger's row), and `url_daily_usage` is otherwise written by
 * the last statement that reads it.
 */
const KNOWN = `${FRESH},
  grouped AS (
    SELECT user_id, url, day, sum(n) AS requests, sum(delivered) AS deliveries, sum(n * crawler) AS crawler_requests,
      max(ts) AS ts
    FROM fresh GROUP BY user_id, url, day
  ),
  placed AS (
    SELECT grouped.*, (
      EXISTS (SELECT 1 FROM url_mappings m WHERE m.user_id = grouped.user_id AND m.normalized_url = grouped.url)
      OR EXISTS (SELECT 1 FROM url_daily_usage u
        WHERE u.user_id = grouped.user_id AND u.url = grouped.url AND u.day = grouped.day)
      OR EXISTS (SELECT 1 FROM url_stats s
        WHERE s.user_id = grouped.user_id AND s.url = grouped.url AND s.latest_day = grouped.day
          AND s.latest_day_seq NOT BETWEEN ?1 AND ?2)) AS known
    FROM grouped
  )`;

/** The row each URL counts in: its own, or the day's "other pages" once the day's new URLs are used up (or too long). */
const ROWS = `${KNOWN},
  ranked AS (
    SELECT placed.*,
      dense_rank() OVER (PARTITION BY known, ${TOO_LONG_FOR_A_ROW}, user_id, day ORDER BY url) AS new_rank
    FROM placed
  ),
  counted AS (
    SELECT ranked.*, CASE
      WHEN known THEN url
      WHEN ${TOO_LONG_FOR_A_ROW} THEN '${OTHER_PAGES}'
      WHEN new_rank + coalesce(
        (SELECT latest_day_unmapped_urls_before FROM usage_counters c
          WHERE c.user_id = ranked.user_id AND c.latest_day = ranked.day),
        (SELECT unmapped_urls_before FROM daily_usage d WHERE d.user_id = ranked.user_id AND d.day = ranked.day),
        0) <= ${UNMAPPED_URLS_PER_DAY} THEN url
      ELSE '${OTHER_PAGES}' END AS row_url
    FROM ranked
  )`;

/**
 * The views of an existing exact mapping at their own URL, summed per mapping. Each URL's newest such mapping
 * (`on_row`) is counted on the URL's `url_stats` row (its `mapping_*` columns), so a fold writes one row for the URL
 * and its mapping; any other mapping's views (a prefix mapping's, an older version's) go to `mapping_stats`.
 */
const OWN_MAPPING = `own AS (
    SELECT f.user_id, f.url, f.mapping_id, sum(f.n) AS requests, sum(f.delivered) AS deliveries
    FROM fresh f JOIN url_mappings m ON m.id = f.mapping_id AND m.user_id = f.user_id AND m.normalized_url = f.url
    GROUP BY f.user_id, f.url, f.mapping_id
  ),
  on_row AS (
    SELECT * FROM own
    WHERE mapping_id = (SELECT max(o.mapping_id) FROM own o WHERE o.user_id = own.user_id AND o.url = own.url)
  )`;

// An upsert from a SELECT needs its WHERE (even `WHERE true`) for SQLite to read ON CONFLICT right.

/**
 * An upsert's SET of the counts of the row's newest day (`latest_day`, on the customer's and the URL's rows): added
 * to for the same day, replaced for a later one (the row's trigger moves the old day to its series), kept for an
 * earlier one (whose views the statements for older days count).
 */
const LATEST_DAY_COUNTS = ["latest_day_requests", "latest_day_deliveries", "latest_day_crawler_requests"]
  .map(
    (count) => `${count} = CASE WHEN latest_day = excluded.latest_day THEN ${count} + excluded.${count}
      WHEN latest_day < excluded.latest_day THEN excluded.${count} ELSE ${count} END`,
  )
  .join(",\n    ");

/** Per customer and day: the views, and how many new URLs without a mapping got rows of their own. */
const DAY_SUMS = `day_sums AS (
    SELECT user_id, day, sum(requests) AS requests, sum(deliveries) AS deliveries,
      sum(crawler_requests) AS crawler_requests,
      min(${UNMAPPED_URLS_PER_DAY}, count(CASE WHEN NOT known AND NOT ${TOO_LONG_FOR_A_ROW} THEN url END))
        AS unmapped_urls
    FROM placed GROUP BY user_id, day
  )`;

/**
 * The customer's row: their counters, and the counts of the newest day the fold holds, which replaces an earlier
 * newest day (the trigger `usage_counters_latest_day_to_series`, db/raw.ts, adds that one to `daily_usage`): one write
 * for both. The URL statements read `latest_day_unmapped_urls_before`, the count from before this fold.
 */
const COUNT_CUSTOMER = `${KNOWN},
  ${BILLING},
  ${DAY_SUMS},
  newest AS (
    SELECT d.* FROM day_sums d WHERE d.day = (SELECT max(day) FROM day_sums n WHERE n.user_id = d.user_id)
  ),
  customer AS (
    SELECT user_id, sum(n) AS total, sum(requests) AS requests, sum(deliveries) AS deliveries,
      sum(n - requests) AS unbilled_requests, sum(delivered - deliveries) AS unbilled_deliveries
    FROM billing GROUP BY user_id
  )
  INSERT INTO usage_counters (user_id, total_requests, period_requests, period_deliveries, period_unbilled_requests,
    period_unbilled_deliveries, latest_day, latest_day_requests, latest_day_deliveries, latest_day_crawler_requests,
    latest_day_unmapped_urls, latest_day_unmapped_urls_before)
  SELECT c.user_id, c.total, c.requests, c.deliveries, c.unbilled_requests, c.unbilled_deliveries, n.day, n.requests,
    n.deliveries, n.crawler_requests, n.unmapped_urls, 0
  FROM customer c JOIN newest n ON n.user_id = c.user_id WHERE true
  ON CONFLICT (user_id) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
    period_requests = period_requests + excluded.period_requests,
    period_deliveries = period_deliveries + excluded.period_deliveries,
    period_unbilled_requests = period_unbilled_requests + excluded.period_unbilled_requests,
    period_unbilled_deliveries = period_unbilled_deliveries + excluded.period_unbilled_deliveries,
    ${LATEST_DAY_COUNTS},
    latest_day_unmapped_urls_before = CASE WHEN latest_day = excluded.latest_day THEN latest_day_unmapped_urls
      WHEN latest_day < excluded.latest_day THEN 0 ELSE latest_day_unmapped_urls_before END,
    latest_day_unmapped_urls = CASE WHEN latest_day = excluded.latest_day
      THEN min(${UNMAPPED_URLS_PER_DAY}, latest_day_unmapped_urls + excluded.latest_day_unmapped_urls)
      WHEN latest_day < excluded.latest_day THEN excluded.latest_day_unmapped_urls
      ELSE latest_day_unmapped_urls END,
    latest_day = max(latest_day, excluded.latest_day)`;

/**
 * The views of a day other than the customer's newest (late, or before midnight) go to `daily_usage`, before the URL
 * statements, which read `unmapped_urls_before` there for such a day.
 */
const COUNT_OLDER_DAY = `${KNOWN},
  ${DAY_SUMS}
  INSERT INTO daily_usage (user_id, day, requests, deliveries, crawler_requests, unmapped_urls, unmapped_urls_before)
  SELECT d.user_id, d.day, d.requests, d.deliveries, d.crawler_requests, d.unmapped_urls, 0
  FROM day_sums d JOIN usage_counters c ON c.user_id = d.user_id WHERE d.day <> c.latest_day
  ON CONFLICT (user_id, day) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, crawler_requests = crawler_requests + excluded.crawler_requests,
    unmapped_urls_before = unmapped_urls,
    unmapped_urls = min(${UNMAPPED_URLS_PER_DAY}, unmapped_urls + excluded.unmapped_urls)`;

const HOUR_MS = 3_600_000;

/**
 * The URL's counts, Last Accessed and the counts of its newest day in one write. A later day replaces the row's
 * latest day, which the trigger `url_stats_latest_day_to_series` (db/raw.ts) adds to `url_daily_usage` in the same
 * statement; the views of an earlier day than the row's are `COUNT_URL_DAY`'s.
 *
 * The Last Accessed order is indexed on the hour (`url_stats_last_accessed_hour_idx`), and SQLite rewrites an
 * index entry whenever its column is set, to the same value or not. So the URLs are written by two statements: those
 * whose hour stays (most of a minute's, which were seen earlier that hour) without the column, then those whose
 * hour moves, and new ones, with it. The first leaves its rows' hour as it was, so the second never takes them.
 */
function countUrl(hourMoves: boolean): string {
  return `${ROWS},
  ${OWN_MAPPING},
  newest AS (SELECT user_id, row_url, max(day) AS day FROM counted GROUP BY user_id, row_url),
  summed AS (
    SELECT c.user_id, c.row_url, sum(c.requests) AS hits, sum(c.deliveries) AS deliveries, max(c.ts) AS ts, n.day,
      sum(CASE WHEN c.day = n.day THEN c.requests ELSE 0 END) AS day_requests,
      sum(CASE WHEN c.day = n.day THEN c.deliveries ELSE 0 END) AS day_deliveries,
      sum(CASE WHEN c.day = n.day THEN c.crawler_requests ELSE 0 END) AS day_crawler_requests
    FROM counted c JOIN newest n ON n.user_id = c.user_id AND n.row_url = c.row_url
    GROUP BY c.user_id, c.row_url
  )
  INSERT INTO url_stats (user_id, url, hits, deliveries, last_accessed, last_accessed_hour, latest_day,
    latest_day_requests, latest_day_deliveries, latest_day_crawler_requests, latest_day_seq, mapping_id,
    mapping_requests, mapping_deliveries)
  SELECT s.user_id, s.row_url, s.hits, s.deliveries, s.ts, s.ts / ${HOUR_MS}, s.day, s.day_requests,
    s.day_deliveries, s.day_crawler_requests, ?2, r.mapping_id, coalesce(r.requests, 0), coalesce(r.deliveries, 0)
  FROM summed s LEFT JOIN url_stats u ON u.user_id = s.user_id AND u.url = s.row_url
    LEFT JOIN on_row r ON r.user_id = s.user_id AND r.url = s.row_url
  WHERE ${
    hourMoves
      ? `u.user_id IS NULL OR u.last_accessed_hour <> max(u.last_accessed, s.ts) / ${HOUR_MS}`
      : `u.last_accessed_hour = max(u.last_accessed, s.ts) / ${HOUR_MS}`
  }
  ON CONFLICT (user_id, url) DO UPDATE SET hits = hits + excluded.hits, deliveries = deliveries + excluded.deliveries,
    last_accessed = max(last_accessed, excluded.last_accessed),${
      hourMoves ? ` last_accessed_hour = max(last_accessed, excluded.last_accessed) / ${HOUR_MS},` : ""
    }
    ${LATEST_DAY_COUNTS},
    latest_day_seq = CASE WHEN latest_day < excluded.latest_day THEN excluded.latest_day_seq ELSE latest_day_seq END,
    latest_day = max(latest_day, excluded.latest_day),
    mapping_requests = CASE WHEN excluded.mapping_id IS NULL THEN mapping_requests
      WHEN mapping_id = excluded.mapping_id THEN mapping_requests + excluded.mapping_requests
      ELSE excluded.mapping_requests END,
    mapping_deliveries = CASE WHEN excluded.mapping_id IS NULL THEN mapping_deliveries
      WHEN mapping_id = excluded.mapping_id THEN mapping_deliveries + excluded.mapping_deliveries
      ELSE excluded.mapping_deliveries END,
    mapping_id = coalesce(excluded.mapping_id, mapping_id)`;
}

/**
 * Before a URL's row takes another mapping's counts (a newer version at the URL, or an older one again), the counts
 * it holds join that mapping's `mapping_stats` row.
 */
const MOVE_MAPPING_OUT = `${FRESH},
  ${OWN_MAPPING}
  INSERT INTO mapping_stats (mapping_id, requests, deliveries, last_accessed)
  SELECT u.mapping_id, u.mapping_requests, u.mapping_deliveries, u.last_accessed
  FROM on_row r JOIN url_stats u ON u.user_id = r.user_id AND u.url = r.url
  WHERE u.mapping_id <> r.mapping_id AND (u.mapping_requests > 0 OR u.mapping_deliveries > 0)
    AND EXISTS (SELECT 1 FROM url_mappings m WHERE m.id = u.mapping_id)
  ON CONFLICT (mapping_id) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, last_accessed = max(last_accessed, excluded.last_accessed)`;

/** The views of a day other than their row's latest day (an older one, late or before midnight) go to the series. */
const COUNT_URL_DAY = `${ROWS}
  INSERT INTO url_daily_usage (user_id, url, day, requests, deliveries, crawler_requests)
  SELECT c.user_id, c.row_url, c.day, sum(c.requests), sum(c.deliveries), sum(c.crawler_requests)
  FROM counted c JOIN url_stats s ON s.user_id = c.user_id AND s.url = c.row_url
  WHERE c.day <> s.latest_day GROUP BY c.user_id, c.row_url, c.day
  ON CONFLICT (user_id, url, day) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, crawler_requests = crawler_requests + excluded.crawler_requests`;

/** The views of mappings not counted on their URL's row (`OWN_MAPPING`). */
const COUNT_MAPPING = `${FRESH},
  ${OWN_MAPPING}
  INSERT INTO mapping_stats (mapping_id, requests, deliveries, last_accessed)
  SELECT mapping_id, sum(n), sum(delivered), max(ts) FROM fresh
  WHERE mapping_id IS NOT NULL AND EXISTS (SELECT 1 FROM url_mappings WHERE url_mappings.id = fresh.mapping_id)
    AND NOT EXISTS (SELECT 1 FROM on_row r
      WHERE r.user_id = fresh.user_id AND r.url = fresh.url AND r.mapping_id = fresh.mapping_id)
  GROUP BY mapping_id
  ON CONFLICT (mapping_id) DO UPDATE SET requests = requests + excluded.requests,
    deliveries = deliveries + excluded.deliveries, last_accessed = max(last_accessed, excluded.last_accessed)`;

/** Selector health (models/placement-health.ts): the delivered views of mappings with a selector, per day. */
const COUNT_PLACEMENT_VIEWS = `${FRESH}
  INSERT INTO placement_health (mapping_id, day, views)
  SELECT f.mapping_id, f.day, sum(f.delivered) FROM fresh f JOIN url_mappings m ON m.id = f.mapping_id
  WHERE m.placement ->> '$.selector' IS NOT NULL AND f.delivered > 0 GROUP BY f.mapping_id, f.day
  ON CONFLICT (mapping_id, day) DO UPDATE SET views = views + excluded.views`;

const COUNTING = [
  COUNT_CUSTOMER,
  COUNT_OLDER_DAY,
  MOVE_MAPPING_OUT,
  countUrl(false),
  countUrl(true),
  COUNT_URL_DAY,
  COUNT_MAPPING,
  COUNT_PLACEMENT_VIEWS,
];

const FOLDED = `DELETE FROM analytics_pending WHERE seq BETWEEN ?1 AND ?2`;

const COUNTERS_AFTER = `SELECT user_id AS userId, period_requests AS periodRequests,
    period_deliveries AS periodDeliveries
  FROM usage_counters WHERE user_id IN (SELECT value FROM json_each(?1))`;

/**
 * The range's customers, whether each has events of experiments (views that exposed, goals reached), whether each
 * has views in consumers' rows (to hand off), and sums in reducers' (to count).
 */
export const CUSTOMERS_OF_RANGE = `SELECT v.value ->> 'userId' AS userId, max(v.value ->> 'vid' IS NOT NULL) AS experiments,
    max(p.reduced = 0 AND v.value ->> 'handed' IS NULL) AS consumed, max(p.reduced = 1) AS reduced
  FROM analytics_pending p, json_each(p.events) v WHERE p.seq BETWEEN ?1 AND ?2 GROUP BY 1`;

export interface PeriodCounters {
  userId: string;
  periodRequests: number;
  periodDeliveries: number;
}

/** A run of pending rows, oldest first, of at most `FOLD_MAX_VIEWS` views (or one row). */
export interface PendingRange {
  from: number;
  to: number;
  views: number;
}

/** Writes the states of the customers whose limit this fold reached (or, after a rollover, lifted). */
async function markLimitChanges(env: Env, before: Map<string, DeliveryLimitState>, after: PeriodCounters[]) {
  for (const counters of after) {
    const usage = before.get(counters.userId);
    if (usage && deliveryLimitReached(usage) !== deliveryLimitReached({ ...usage, ...counters })) {
      await syncCustomerState(env, counters.userId);
    }
  }
}

/** The visitors each customer of the range with experiments' events may count (experiment-fold.ts ?3), as JSON. */
function experimentCaps(customers: Map<string, DeliveryLimitState>, range: { userId: string; experiments: number }[]) {
  const caps: Record<string, number> = {};
  for (const { userId, experiments } of range) {
    const usage = customers.get(userId);
    if (experiments && usage) caps[userId] = experimentVisitorCap(smallestLimitOf(usage));
  }
  return JSON.stringify(caps);
}

/** Where a fold of a range failed: its customers' loading, handing it to the reducers, or counting it. */
export type FoldStage = "load" | "handoff" | "count";

/** A fold that failed, and where: only a failure to hand off is the reducers' (fold.ts `foldPendingAnalytics`). */
export class FoldFailure extends Error {
  constructor(
    readonly stage: FoldStage,
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export async function inStage<T>(stage: FoldStage, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new FoldFailure(stage, err);
  }
}

/** The counting statements of a range, for the customers `only` (a JSON array of ids; null: all of them). */
export function countingStatements(
  d1: D1Database,
  range: PendingRange,
  only: string | null,
  of: { reduced: boolean; experiments: boolean; caps: string },
) {
  return [
    // Only reducers' sums are counted here; a range of consumers' rows alone has nothing for these statements.
    ...(of.reduced ? COUNTING.map((sql) => d1.prepare(sql).bind(range.from, range.to, only)) : []),
    // Only a range that holds experiments' events pays for their statements.
    ...(of.experiments ? experimentCounting(d1, range.from, range.to, only, of.caps) : []),
  ];
}

/** A range's customers: whether each has experiments' events, page views to hand off, settled sums to count. */
export interface RangeCustomer {
  userId: string;
  experiments: number;
  consumed: number;
  reduced: number;
}

/** A range and its customers, loaded with their billing brought up to now. */
export interface LoadedRange {
  customersOfRange: RangeCustomer[];
  customers: Map<string, DeliveryLimitState>;
}

/** The range's customers, with their plans and usage (their billing brought up to `now`). Fails as "load". */
export function loadRange(env: Env, range: PendingRange, now: Date): Promise<LoadedRange> {
  return inStage("load", async () => {
    const { results } = await env.DB.prepare(CUSTOMERS_OF_RANGE).bind(range.from, range.to).all<RangeCustomer>();
    const customers = await loadBatchCustomers(
      env,
      results.map((r) => r.userId),
      now,
    );
    return { customersOfRange: results, customers };
  });
}

/** The statement that ends a counted range: its rows go. */
export const deleteRange = (d1: D1Database, range: PendingRange) => d1.prepare(FOLDED).bind(range.from, range.to);

/**
 * Counts the range, in one transaction with `closing`, the statements that end it; then writes the delivery state of
 * each customer whose limit the count reached or lifted. Answers the results of `closing`. Fails as "count".
 */
export async function countRange(
  env: Env,
  range: PendingRange,
  { customersOfRange, customers }: LoadedRange,
  closing: D1PreparedStatement[],
): Promise<D1Result<Record<string, unknown>>[]> {
  const d1 = env.DB;
  const outcome = await inStage("count", () =>
    d1.batch<Record<string, unknown>>([
      ...countingStatements(d1, range, null, {
        reduced: customersOfRange.some((r) => r.reduced),
        experiments: customersOfRange.some((r) => r.experiments),
        caps: experimentCaps(customers, customersOfRange),
      }),
      ...closing,
      d1.prepare(COUNTERS_AFTER).bind(JSON.stringify([...customers.keys()])),
    ]),
  );
  await markLimitChanges(env, customers, outcome.at(-1)!.results as unknown as PeriodCounters[]);
  return outcome.slice(-1 - closing.length, -1);
}

/** Counts a range of settled sums (a reducer's settle) and deletes it; answers its views. */
export async function countSettled(env: Env, range: PendingRange, now: Date): Promise<number> {
  const loaded = await loadRange(env, range, now);
  await countRange(env, range, loaded, [deleteRange(env.DB, range)]);
  return range.views;
}
