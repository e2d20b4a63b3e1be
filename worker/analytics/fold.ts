/**
 * @module The fold: takes the pending rows (record.ts) in ranges, one `batch()` (one transaction) each. A consumer's
 * row of page views is handed to the reducers first (reducer.ts, `handOff` below), which hold the views summed and
 * settle them back, when the counters are read, a limit could be reached, the period ends or a day has passed, as a
 * pending row of sums (reduced = 1) that the fold counts at once: one upsert per counter row the range touches
 * (customer, with the counts of their newest day; customer and an older day; customer and URL, with the counts of
 * the URL's newest day and of its exact mapping; customer, URL and an older day; any other mapping), never one per
 * view or batch. So a customer's counter rows are written about once a day, or once per look at their dashboards.
 * A fold that fails leaves its range pending for the next minute; two folds of one range count it once, since the
 * second finds its rows deleted. Before a range is counted its customers' billing is brought up to now
 * (batch-customers.ts), so its views count in the period they belong to; after it, the delivery state of each
 * customer whose limit it reached (or lifted) is written. So counters and limits trail page views by about a minute
 * (the dashboards say so).
 *
 * What strangers can spend and fill (docs/analytics.md):
 * - **The plan's quota.** A view spends it unless a known crawler asked, or its visitor has already spent their
 *   day's budget of this customer's (a share of their limit, `visitorQuotaOf`; the reducer bills them:
 *   reducer-visitors.ts, for customers whose plan limits deliveries or requests); a settled sum carries its
 *   customer's views that spent none (`unbilled`), counted apart.
 * - **Per-URL rows.** A URL gets rows of its own (`url_stats`, `url_daily_usage`) when the customer has a mapping
 *   there, when it has a row today already, or as one of the first `UNMAPPED_URLS_PER_DAY` new URLs of the
 *   customer's day of at most `UNMAPPED_URL_MAX_LENGTH` characters; every other view counts in the day's
 *   `OTHER_PAGES` row. Rows of URLs without a mapping not seen for a while are purged (url-retention.ts).
 * Statements read what earlier statements of the fold wrote, so their order matters: the customer's row and their
 * older days first (`latest_day_unmapped_urls_before` and `unmapped_urls_before` keep the counts from before this
 * fold for the URL statements), the URL rows before their series.
 */
import { experimentVisitorCap } from "#contract/experiments";
import { OTHER_PAGES } from "#contract/responses";
import type { Env } from "../env";
import type { HandoffPart, Headroom, HeldSum, VisitorTally } from "../messages/analytics";
import { OLDEST_PENDING } from "../models/analytics-health";
import { deliveryLimitReached, isMetered, smallestLimitOf, type DeliveryLimitState } from "../models/limits";
import { syncCustomerState } from "../delivery/sync";
import { loadBatchCustomers } from "./batch-customers";
import { countedCustomer, experimentCounting } from "./experiment-fold";
import { releaseDue, setAside } from "./quarantine";
import { HOLD_MAX_SUMS, reducerOf, reducerShardOf, sumChunks } from "./reducer-shards";
import { VISITOR_DAILY_QUOTA, visitorDailyQuota } from "./reducer-visitors";

/** New URLs without a mapping that get rows of their own per customer and day. */
export const UNMAPPED_URLS_PER_DAY = 1_000;
/**
 * The longest normalised URL without a mapping that gets rows of its own (docs/scaling.md: a URL's row with its
 * trigram index costs about 7 bytes a character); a longer one counts in `OTHER_PAGES`. Mapped URLs keep theirs.
 */
export const UNMAPPED_URL_MAX_LENGTH = 256;
/** In the statements over `placed`: the URL, without a mapping or rows that day, is too long for rows of its own. */
const TOO_LONG_FOR_A_ROW = `length(url) > ${UNMAPPED_URL_MAX_LENGTH}`;
/**
 * Views one fold transaction counts at most: a minute at 10,000 million views a month (231,000), so that a counter
 * row touched in a minute is written once, not once per part of it. Such a fold took 9 to 13 s in Miniflare (about
 * 40 µs a view, most of it sorting the views by customer, URL and mapping), each statement far within D1's 30 s; a
 * smaller minute folds in proportion.
 */
export const FOLD_MAX_VIEWS = 250_000;
/** How long one cron run keeps folding before it leaves the rest to the next minute. */
const FOLD_BUDGET_MS = 25_000;

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

const COUNTING = [
  COUNT_CUSTOMER,
  COUNT_OLDER_DAY,
  MOVE_MAPPING_OUT,
  countUrl(false),
  countUrl(true),
  COUNT_URL_DAY,
  COUNT_MAPPING,
];

const FOLDED = `DELETE FROM analytics_pending WHERE seq BETWEEN ?1 AND ?2`;
const HANDED_OFF = `DELETE FROM analytics_handoffs WHERE from_seq = ?1`;

/** A page view of customers ?3 that a reducer is still owed: not a goal, not held already (`handed`). */
const OWED = `v.value ->> 'goal' IS NULL AND v.value ->> 'handed' IS NULL
  AND (v.value ->> 'userId') IN (SELECT value FROM json_each(?3))`;

/**
 * What stays of a range whose handoff failed for some shards (`foldRange`): the page views of those shards'
 * customers ?3, unchanged but for their experiment, which this fold counted, so that handing them off again makes the
 * same parts. Everything else of the range is counted and goes; the handoff stays, listing only them (`listed`, in
 * the order it first listed them). The last statement answers the views that stay.
 */
function keepOwed(d1: D1Database, range: PendingRange, owed: string[], listed: string[]) {
  return [
    d1
      .prepare(
        `UPDATE analytics_pending SET
          events = (SELECT json_group_array(json(json_remove(v.value, '$.vid', '$.experiment', '$.variant')))
            FROM json_each(analytics_pending.events) v WHERE ${OWED}),
          views = (SELECT count(*) FROM json_each(analytics_pending.events) v WHERE ${OWED})
        WHERE seq BETWEEN ?1 AND ?2 AND reduced = 0`,
      )
      .bind(range.from, range.to, JSON.stringify(owed)),
    d1
      .prepare(`DELETE FROM analytics_pending WHERE seq BETWEEN ?1 AND ?2 AND (reduced = 1 OR views = 0)`)
      .bind(range.from, range.to),
    d1
      .prepare(`UPDATE analytics_handoffs SET customers = ?2 WHERE from_seq = ?1`)
      .bind(range.from, JSON.stringify(listed)),
    d1
      .prepare(`SELECT coalesce(sum(views), 0) AS owed FROM analytics_pending WHERE seq BETWEEN ?1 AND ?2`)
      .bind(range.from, range.to),
  ];
}

const COUNTERS_AFTER = `SELECT user_id AS userId, period_requests AS periodRequests,
    period_deliveries AS periodDeliveries
  FROM usage_counters WHERE user_id IN (SELECT value FROM json_each(?1))`;

/**
 * The range's customers, whether each has events of experiments (views that exposed, goals reached), whether each
 * has views in consumers' rows (to hand off), and sums in reducers' (to count).
 */
const CUSTOMERS_OF_RANGE = `SELECT v.value ->> 'userId' AS userId, max(v.value ->> 'vid' IS NOT NULL) AS experiments,
    max(p.reduced = 0 AND v.value ->> 'handed' IS NULL) AS consumed, max(p.reduced = 1) AS reduced
  FROM analytics_pending p, json_each(p.events) v WHERE p.seq BETWEEN ?1 AND ?2 GROUP BY 1`;

/** The views of customers ?3 in consumers' rows ?1 to ?2, summed as a reducer holds them. */
const HELD_SUMS = `SELECT v.value ->> 'userId' AS userId, v.value ->> 'url' AS url, v.value ->> 'day' AS day,
    v.value ->> 'mappingId' AS mappingId, coalesce(v.value ->> 'crawler', 0) AS crawler, count(*) AS n,
    sum(v.value ->> 'delivered') AS delivered, max(v.value ->> 'timestamp') AS timestamp
  FROM analytics_pending p, json_each(p.events) v
  WHERE p.seq BETWEEN ?1 AND ?2 AND p.reduced = 0 AND v.value ->> 'goal' IS NULL AND v.value ->> 'handed' IS NULL
    AND (v.value ->> 'userId') IN (SELECT value FROM json_each(?3))
  GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;

/**
 * The visitors of metered customers ?3 in consumers' rows ?1 to ?2, as a reducer bills them (`VisitorTally`): the
 * views not by a known crawler, and where each delivered one stands among its visitor's, within a day's budget.
 */
const VISITOR_TALLIES = `WITH seen AS (
    SELECT v.value ->> 'userId' AS user_id, v.value ->> 'day' AS day, v.value ->> 'visitor' AS visitor,
      v.value ->> 'delivered' AS delivered, row_number() OVER (
        PARTITION BY v.value ->> 'userId', v.value ->> 'day', v.value ->> 'visitor'
        ORDER BY v.value ->> 'timestamp', v.value ->> 'id') AS place
    FROM analytics_pending p, json_each(p.events) v
    WHERE p.seq BETWEEN ?1 AND ?2 AND p.reduced = 0 AND v.value ->> 'goal' IS NULL AND v.value ->> 'handed' IS NULL
      AND coalesce(v.value ->> 'crawler', 0) = 0 AND v.value ->> 'visitor' IS NOT NULL
      AND (v.value ->> 'userId') IN (SELECT value FROM json_each(?3))
  )
  SELECT user_id AS userId, day, visitor, count(*) AS n, sum(delivered) AS delivered,
    json_group_array(place) FILTER (WHERE delivered AND place <= ${VISITOR_DAILY_QUOTA}) AS deliveredAt
  FROM seen GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;

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

/**
 * The oldest pending rows, in ranges one fold transaction each. The rows of a handoff still owed to a reducer
 * (`foldRange`) are left out, and no range spans them: they are its handoff's to fold.
 */
async function pendingRanges(d1: D1Database): Promise<PendingRange[]> {
  const [owedHandoffs, pending] = await d1.batch<{ from: number; seq: number; views: number }>([
    d1.prepare(`SELECT from_seq AS "from" FROM analytics_handoffs ORDER BY from_seq`),
    d1.prepare(
      `SELECT seq, views FROM analytics_pending p
      WHERE NOT EXISTS (SELECT 1 FROM analytics_handoffs h WHERE p.seq BETWEEN h.from_seq AND h.to_seq)
      ORDER BY seq LIMIT 5000`,
    ),
  ]);
  const owed = owedHandoffs!.results.map((h) => h.from);
  const ranges: PendingRange[] = [];
  for (const row of pending!.results) {
    const last = ranges.at(-1);
    const spansOwed = last !== undefined && owed.some((from) => from > last.to && from < row.seq);
    if (last && !spansOwed && last.views + row.views <= FOLD_MAX_VIEWS) {
      last.to = row.seq;
      last.views += row.views;
    } else {
      ranges.push({ from: row.seq, to: row.seq, views: row.views });
    }
  }
  return ranges;
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

/** What the customer may still spend before their limit is reached; none when it is reached or they have none. */
function headroomOf(usage: DeliveryLimitState): Headroom | undefined {
  if (!isMetered(usage) || deliveryLimitReached(usage)) return undefined;
  return {
    requests: usage.requestLimit === null ? null : usage.requestLimit - usage.periodRequests,
    deliveries: usage.dynamicContentLimit === null ? null : usage.dynamicContentLimit - usage.periodDeliveries,
  };
}

/** Each of the customer's visitors' daily budget: a share of their smallest limit (reducer-visitors.ts). */
const visitorQuotaOf = (usage: DeliveryLimitState) => visitorDailyQuota(smallestLimitOf(usage));

/** The visitors each customer of the range with experiments' events may count (experiment-fold.ts ?3), as JSON. */
function experimentCaps(customers: Map<string, DeliveryLimitState>, range: { userId: string; experiments: number }[]) {
  const caps: Record<string, number> = {};
  for (const { userId, experiments } of range) {
    const usage = customers.get(userId);
    if (experiments && usage) caps[userId] = experimentVisitorCap(smallestLimitOf(usage));
  }
  return JSON.stringify(caps);
}

/**
 * Hands the views in the range's consumers' rows to the reducers (reducer.ts), summed per customer, URL, day, mapping
 * and crawler flag, with the metered customers' visitors' tallies and what each may still spend, in parts of at
 * most `HOLD_MAX_SUMS` sums (and about `SUMS_MAX_BYTES`: `sumChunks`) and tallies per reducer. The handoff's customers are written first, so a cron that stops
 * half way hands the same range and customers over again (`handoff`, when redoing one), in the same parts, and a
 * reducer ignores the parts it has. A handoff begun before metered customers were handed off too lists only the
 * others: the rest follow in parts after theirs.
 *
 * A reducer that fails a part fails its shard's share of the handoff, and so does one in `blocked` (shards that
 * failed earlier in this run): the shard is skipped from then on, since a later part of its would pass the failed
 * one's position. Answers the failed shards with why; the other shards' customers are counted (`foldRange`). A
 * failure to read the range (D1) fails the whole handoff.
 */
async function handOff(
  env: Env,
  range: PendingRange,
  customers: Map<string, DeliveryLimitState>,
  consumed: string[],
  handoff: string | undefined,
  blocked: Map<number, string>,
): Promise<{ failed: Map<number, string>; listed: string[] }> {
  const failed = new Map<number, string>();
  const d1 = env.DB;
  const existing = consumed.filter((userId) => customers.has(userId));
  let stored = handoff;
  if (stored === undefined) {
    if (existing.length === 0) return { failed, listed: [] };
    // A fold of the same range at the same time (two crons) hands over the customers the first one wrote.
    const row = await d1
      .prepare(
        `INSERT INTO analytics_handoffs (from_seq, to_seq, customers) VALUES (?1, ?2, ?3)
        ON CONFLICT (from_seq) DO UPDATE SET from_seq = from_seq RETURNING to_seq AS "to", customers`,
      )
      .bind(range.from, range.to, JSON.stringify(existing))
      .first<{ to: number; customers: string }>();
    if (row!.to !== range.to) throw new Error(`Rows from ${range.from} are being handed over as another range`);
    stored = row!.customers;
  }
  const first = JSON.parse(stored) as string[];
  const listed = new Set(first);
  const groups = [first, existing.filter((userId) => !listed.has(userId))].filter((group) => group.length > 0);
  const nextPart = new Map<number, number>();
  for (const group of groups) {
    const metered = group.filter((userId) => customers.has(userId) && isMetered(customers.get(userId)!));
    const [{ results: sums }, { results: tallies }] = await Promise.all([
      d1.prepare(HELD_SUMS).bind(range.from, range.to, JSON.stringify(group)).all<HeldSum>(),
      metered.length === 0
        ? { results: [] }
        : d1
            .prepare(VISITOR_TALLIES)
            .bind(range.from, range.to, JSON.stringify(metered))
            .all<Omit<VisitorTally, "deliveredAt"> & { deliveredAt: string }>(),
    ]);
    const byShard = new Map<number, HandoffPart>();
    const partOf = (userId: string) => {
      const shard = reducerShardOf(env, userId);
      let part = byShard.get(shard);
      if (!part) {
        byShard.set(shard, (part = { sums: [], tallies: [], periodEnds: {}, headroom: {}, visitorQuotas: {} }));
      }
      return part;
    };
    for (const sum of sums) {
      const part = partOf(sum.userId);
      part.sums.push(sum);
      const ends = customers.get(sum.userId)?.billingPeriodEnd;
      if (ends) part.periodEnds[sum.userId] = ends.getTime();
    }
    for (const { deliveredAt, ...tally } of tallies) {
      partOf(tally.userId).tallies.push({ ...tally, deliveredAt: JSON.parse(deliveredAt) as number[] });
    }
    for (const userId of metered) {
      const usage = customers.get(userId)!;
      const room = headroomOf(usage);
      if (room) partOf(userId).headroom[userId] = room;
      partOf(userId).visitorQuotas![userId] = visitorQuotaOf(usage);
    }
    await Promise.all(
      [...byShard].map(async ([shard, { sums, tallies, periodEnds, headroom, visitorQuotas }]) => {
        const reducer = reducerOf(env, shard);
        const sumParts = sumChunks(sums);
        const parts = Math.max(1, sumParts.length, Math.ceil(tallies.length / HOLD_MAX_SUMS));
        const offset = nextPart.get(shard) ?? 0;
        nextPart.set(shard, offset + parts);
        const earlier = blocked.get(shard) ?? failed.get(shard);
        if (earlier !== undefined) {
          failed.set(shard, earlier);
          return;
        }
        try {
          for (let part = 0; part < parts; part++) {
            await reducer.hold(shard, range.to, offset + part, {
              sums: sumParts[part] ?? [],
              tallies: tallies.slice(part * HOLD_MAX_SUMS, (part + 1) * HOLD_MAX_SUMS),
              periodEnds,
              headroom,
              visitorQuotas,
            });
          }
        } catch (err) {
          failed.set(shard, `reducer ${shard}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
    );
  }
  for (const [shard, why] of failed) blocked.set(shard, why);
  return { failed, listed: first };
}

/** Where a fold of a range failed: its customers' loading, handing it to the reducers, or counting it. */
export type FoldStage = "load" | "handoff" | "count";

/** A fold that failed, and where: only a failure to hand off is the reducers' (`foldPendingAnalytics`). */
export class FoldFailure extends Error {
  constructor(
    readonly stage: FoldStage,
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

async function inStage<T>(stage: FoldStage, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new FoldFailure(stage, err);
  }
}

/** The counting statements of a range, for the customers `only` (a JSON array of ids; null: all of them). */
function countingStatements(
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

/**
 * Counts one range of pending rows and deletes them; answers the views it counted. `handoff` is the customers of a
 * handoff of this range that did not finish (`analytics_handoffs`). When the handoff fails for some shards (or they
 * are `blocked`, having failed earlier in the run), everything else is counted and the page views of those shards'
 * customers stay, owed to their reducers, the handoff listing only them (`KEEP_OWED`): the next run hands them off
 * again first. Fails with a `FoldFailure`.
 */
export async function foldRange(
  env: Env,
  range: PendingRange,
  now: Date,
  handoff?: string,
  blocked = new Map<number, string>(),
): Promise<number> {
  const d1 = env.DB;
  const { results, customers } = await inStage("load", async () => {
    const { results } = await d1
      .prepare(CUSTOMERS_OF_RANGE)
      .bind(range.from, range.to)
      .all<{ userId: string; experiments: number; consumed: number; reduced: number }>();
    const customers = await loadBatchCustomers(
      env,
      results.map((r) => r.userId),
      now,
    );
    return { results, customers };
  });
  const consumed = results.filter((r) => r.consumed).map((r) => r.userId);
  const { failed, listed } = await inStage("handoff", () => handOff(env, range, customers, consumed, handoff, blocked));
  const onFailedShard = (userId: string) => failed.has(reducerShardOf(env, userId));
  const owed = consumed.filter((userId) => customers.has(userId) && onFailedShard(userId));
  const userIds = JSON.stringify([...customers.keys()]);
  const outcome = await inStage("count", () =>
    d1.batch<Record<string, unknown>>([
      ...countingStatements(d1, range, null, {
        reduced: results.some((r) => r.reduced),
        experiments: results.some((r) => r.experiments),
        caps: experimentCaps(customers, results),
      }),
      ...(owed.length === 0
        ? [d1.prepare(FOLDED).bind(range.from, range.to), d1.prepare(HANDED_OFF).bind(range.from)]
        : keepOwed(d1, range, owed, listed.filter(onFailedShard))),
      d1.prepare(COUNTERS_AFTER).bind(userIds),
    ]),
  );
  await markLimitChanges(env, customers, outcome.at(-1)!.results as unknown as PeriodCounters[]);
  if (owed.length === 0) return range.views;
  await rangeStuck(d1, range, new Error([...new Set(failed.values())].join("; ")), now);
  return range.views - Number(outcome.at(-2)!.results[0]!.owed);
}

/**
 * A statement that always fails (an integer overflow), last in a probe's batch so that D1 rolls back everything the
 * probe counted: a probe only tells whether its customers' part of a range folds.
 */
const PROBE_ROLLBACK = `SELECT abs(-9223372036854775808)`;
const isProbeRollback = (err: unknown) => err instanceof Error && /integer overflow/i.test(err.message);

/**
 * Whether a failure is one SQLite found in the data (a statement's error, a constraint, malformed JSON), which a
 * customer's rows can cause, rather than D1 being unreachable or busy: only the former is isolated.
 */
const isDataError = (err: unknown) =>
  err instanceof Error && /SQLITE_(ERROR|CONSTRAINT|TOOBIG|MISMATCH|RANGE)|malformed JSON/i.test(err.message);

/**
 * Whether the customers' part of the range folds (null), or why not: their loading (when that is what failed) and
 * the counting statements restricted to them, rolled back. The reducers are not involved: their failures are not a
 * customer's.
 */
async function probe(
  env: Env,
  range: PendingRange,
  userIds: string[],
  { stage, now, of }: { stage: FoldStage; now: Date; of: { reduced: boolean; experiments: boolean; caps: string } },
): Promise<string | null> {
  const d1 = env.DB;
  try {
    if (stage === "load") await loadBatchCustomers(env, userIds, now);
    await d1.batch([...countingStatements(d1, range, JSON.stringify(userIds), of), d1.prepare(PROBE_ROLLBACK)]);
  } catch (err) {
    if (isProbeRollback(err)) return null;
    if (isDataError(err)) return (err as Error).message;
    throw err;
  }
  throw new Error("A fold probe was not rolled back");
}

/** Probes one isolation may spend: about 2 × log2(customers) per customer who fails, so a few of them in a large range. */
const MAX_PROBES = 40;

/**
 * The customers whose part of the range fails alone, with why, found by halving: a group that folds is cleared, one
 * that fails is split. Empty when nothing customer-specific fails: when no customers' part folds either (a probe of
 * none, D1 down or busy), when every customer's part fails (a table that takes no writes fails them all alike), or
 * when the probes are spent. So a range of one customer is never isolated: it waits, and the next minute's range
 * holds other customers' rows too.
 */
async function failingCustomers(
  env: Env,
  range: PendingRange,
  stage: FoldStage,
  now: Date,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let customers = 0;
  try {
    const { results } = await env.DB.prepare(CUSTOMERS_OF_RANGE)
      .bind(range.from, range.to)
      .all<{ userId: string; experiments: number; reduced: number }>();
    customers = results.length;
    // A probe is rolled back, so the experiments' caps need not be the customers' own: the widest does.
    const of = { reduced: results.some((r) => r.reduced), experiments: results.some((r) => r.experiments), caps: "{}" };
    // Counting that has nothing of customers to count failed for reasons of its own (deleting the range, say).
    if (stage === "count" && !of.reduced && !of.experiments) return new Map();
    const options = { stage, now, of };
    if ((await probe(env, range, [], options)) !== null) return new Map();
    const groups = [results.map((r) => r.userId)];
    let probes = 1;
    while (groups.length > 0) {
      const group = groups.shift()!;
      if (++probes > MAX_PROBES) return new Map();
      const failure = await probe(env, range, group, options);
      if (failure === null) continue;
      if (group.length === 1) {
        found.set(group[0]!, failure);
        continue;
      }
      const half = Math.ceil(group.length / 2);
      groups.push(group.slice(0, half), group.slice(half));
    }
  } catch {
    return new Map();
  }
  return found.size < customers ? found : new Map();
}

/**
 * Folds the range; when that fails for reasons of some of its customers (P-1: rows that make a statement fail),
 * sets their events aside (quarantine.ts) and folds everyone else's at once. A failure to hand off is the reducers'
 * and is thrown as it is, as is one that no customer's part explains. A range whose handoff was begun by an earlier
 * fold is isolated only when this fold handed it off whole (its views are then held: set aside, they are only the
 * experiments' to count), or when it failed before that with no handoff begun.
 */
export async function foldRangeIsolating(
  env: Env,
  range: PendingRange,
  now: Date,
  handoff?: string,
  blocked = new Map<number, string>(),
): Promise<number> {
  try {
    return await foldRange(env, range, now, handoff, blocked);
  } catch (err) {
    if (!(err instanceof FoldFailure) || err.stage === "handoff" || !isDataError(err.cause)) throw err;
    if (err.stage === "load" && handoff !== undefined) throw err;
    const failing = await failingCustomers(env, range, err.stage, now);
    // A customer of a shard whose handoff failed keeps their views in the range, owed to it in the same parts.
    for (const userId of failing.keys()) if (blocked.has(reducerShardOf(env, userId))) failing.delete(userId);
    if (failing.size === 0) throw err;
    const aside = await setAside(env.DB, range, failing, { handed: err.stage === "count", now });
    return (await foldRange(env, range, now, handoff, blocked)) - aside;
  }
}

/** Handoffs a cron began and did not finish: their ranges are folded first, with the same customers. */
async function unfinishedHandoffs(d1: D1Database): Promise<{ range: PendingRange; customers: string }[]> {
  const { results } = await d1
    .prepare(
      `SELECT h.from_seq AS "from", h.to_seq AS "to", h.customers,
        (SELECT coalesce(sum(views), 0) FROM analytics_pending p WHERE p.seq BETWEEN h.from_seq AND h.to_seq) AS views
      FROM analytics_handoffs h ORDER BY h.from_seq`,
    )
    .all<PendingRange & { customers: string }>();
  return results.map(({ customers, ...range }) => ({ range, customers }));
}

/** Settled rows (reducers' sums) after `seq`, one range each: foldable while an earlier range is stuck. */
async function settledRowsAfter(d1: D1Database, seq: number): Promise<PendingRange[]> {
  const { results } = await d1
    .prepare(`SELECT seq, views FROM analytics_pending WHERE seq > ?1 AND reduced = 1 ORDER BY seq LIMIT 1000`)
    .bind(seq)
    .all<{ seq: number; views: number }>();
  return results.map((row) => ({ from: row.seq, to: row.seq, views: row.views }));
}

/** How old the oldest pending view may grow before the log says so. */
export const BACKLOG_WARN_MS = 10 * 60_000;

/**
 * A range that could not be folded: its handoff (if begun) counts the failure and keeps why, for admins; the log
 * says so on the first failure, every tenth, and whenever the oldest pending view is older than `BACKLOG_WARN_MS`.
 */
async function rangeStuck(d1: D1Database, range: PendingRange, err: unknown, now: Date) {
  const message = err instanceof Error ? err.message : String(err);
  const row = await d1
    .prepare(
      `UPDATE analytics_handoffs SET failures = failures + 1, last_error = ?2 WHERE from_seq = ?1 RETURNING failures`,
    )
    .bind(range.from, message.slice(0, 1000))
    .first<{ failures: number }>()
    .catch(() => null);
  const oldest = await d1
    .prepare(OLDEST_PENDING)
    .first<{ oldest: number | null }>()
    .catch(() => null);
  const age = oldest?.oldest ? now.getTime() - oldest.oldest : 0;
  const failures = row?.failures ?? 1;
  if (failures === 1 || failures % 10 === 0 || age >= BACKLOG_WARN_MS) {
    console.warn(
      `Analytics: rows ${range.from} to ${range.to} failed to fold (${failures} times): ${message}; ` +
        `the oldest pending view is ${Math.round(age / 60_000)} minutes old`,
    );
  }
}

/**
 * Folds what is pending, oldest first, range by range, until nothing is or the run's budget is spent (the next
 * minute goes on); answers the views folded. First the events quarantine.ts set aside that are due again.
 *
 * Handoffs still owed to reducers come first, in order; one owed only to shards that failed earlier in the run
 * waits, since a later handoff's positions would pass its own in the reducers (reducer.ts `positionOf`) and its
 * parts would then be ignored. A reducer that fails holds back only its own customers' page views (`foldRange`).
 *
 * A range that fails otherwise (after its customers' part is isolated: `foldRangeIsolating`), D1 unreachable say,
 * stops the consumers' rows after it. The reducers' settled rows after it hold no handoff and are folded all the
 * same, so customers whose counters are read or whose limits near keep being counted. The failure is then thrown,
 * for the cron's log, once the rest is done.
 */
export async function foldPendingAnalytics(env: Env, now = new Date()): Promise<number> {
  const started = Date.now();
  const d1 = env.DB;
  const overBudget = () => Date.now() - started >= FOLD_BUDGET_MS;
  await releaseDue(d1, now);
  let folded = 0;
  let stuck: { range: PendingRange; err: unknown } | null = null;
  // The shards whose handoff failed in this run, with why: none is asked again before the next run.
  const blocked = new Map<number, string>();
  const attempt = async (range: PendingRange, handoff?: string) => {
    try {
      folded += await foldRangeIsolating(env, range, now, handoff, blocked);
    } catch (err) {
      stuck = { range, err };
      await rangeStuck(d1, range, err, now);
    }
  };
  const owedOnlyToBlocked = (customers: string) => {
    const listed = JSON.parse(customers) as string[];
    return listed.length > 0 && listed.every((userId) => blocked.has(reducerShardOf(env, userId)));
  };
  for (const { range, customers } of await unfinishedHandoffs(d1)) {
    if (owedOnlyToBlocked(customers)) continue;
    await attempt(range, customers);
    if (stuck || overBudget()) break;
  }
  while (!stuck && !overBudget()) {
    const ranges = await pendingRanges(d1);
    if (ranges.length === 0) break;
    for (const range of ranges) {
      await attempt(range);
      if (stuck || overBudget()) break;
    }
  }
  const halted = stuck as { range: PendingRange; err: unknown } | null;
  if (halted) {
    for (const range of await settledRowsAfter(d1, halted.range.to)) {
      if (overBudget()) break;
      try {
        folded += await foldRangeIsolating(env, range, now);
      } catch {
        // Left pending for the next minute, like the range that is stuck.
      }
    }
    throw halted.err instanceof FoldFailure ? halted.err.cause : halted.err;
  }
  return folded;
}
