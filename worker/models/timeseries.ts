/**
 * @module The customer's usage over time (`GET /api/analytics/timeseries`, docs/analytics.md): sums of the daily
 * rollups (`daily_usage`, one row per customer and day, plus the counts of their newest day on their `usage_counters`
 * row; for a URL `url_daily_usage`, one per day, plus the counts of
 * its newest day on its `url_stats` row, and `url_monthly_usage` for its months past the last 13, each counted on its
 * first day) per day, week or month, every bucket of the range present (zeros where nothing was asked). Reads one
 * row per day of the range, whatever the traffic.
 */
import { and, between, eq, sql, type SQL } from "drizzle-orm";
import { utcDay } from "../lib/days";
import { formatNumber } from "#contract/input-caps";
import { normalizeUrl } from "#contract/normalize-url";
import {
  TIMESERIES_DEFAULT_DAYS,
  TIMESERIES_MAX_DAYS,
  type Interval,
  type TimeseriesPoint,
  type TimeseriesQuery,
} from "#contract/timeseries";
import type { Db } from "../db/client";
import { dailyUsage, urlDailyUsage, urlMonthlyUsage, urlStats, usageCounters } from "../db/schema";
import { Refusal } from "../lib/refusal";
import { unsettledCounts, unsettledReads, type Held } from "./held-counts";

const DAY_MS = 86_400_000;

/** The first day of the bucket a day (YYYY-MM-DD) falls in: itself, its week's Monday, or its month's first. */
function bucketOf(day: string, interval: Interval): string {
  if (interval === "day") return day;
  if (interval === "month") return `${day.slice(0, 7)}-01`;
  const date = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return new Date(date.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/** The bucket after one. */
function nextBucket(start: string, interval: Interval): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (interval === "month") date.setUTCMonth(date.getUTCMonth() + 1);
  else date.setUTCDate(date.getUTCDate() + (interval === "week" ? 7 : 1));
  return date.toISOString().slice(0, 10);
}

/** The first day of each row's bucket, in SQL (as `bucketOf`). */
const bucketSql = (
  day: typeof dailyUsage.day | typeof urlDailyUsage.day | typeof urlMonthlyUsage.month,
  interval: Interval,
) =>
  ({
    day: sql<string>`${day}`,
    week: sql<string>`date(${day}, '-6 days', 'weekday 1')`,
    month: sql<string>`substr(${day}, 1, 7) || '-01'`,
  })[interval];

/** Days of the range `from`..`to` (inclusive, YYYY-MM-DD). */
export const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;

export interface SeriesQuery {
  interval: Interval;
  from: string;
  to: string;
  /** One normalised URL's series (`url_daily_usage`); absent: the whole account's (`daily_usage`). */
  url?: string;
}

type Counts = { requests: number; deliveries: number; crawlerRequests: number };

/** Sums of a counters table's rows per bucket (first day, YYYY-MM-DD). */
function bucketSums(
  db: Db,
  table: typeof dailyUsage | typeof urlDailyUsage | typeof urlMonthlyUsage,
  day: typeof dailyUsage.day | typeof urlDailyUsage.day | typeof urlMonthlyUsage.month,
  where: SQL | undefined,
  interval: Interval,
) {
  const bucket = bucketSql(day, interval);
  return db
    .select({
      bucket,
      requests: sql<number>`sum(${table.requests})`,
      deliveries: sql<number>`sum(${table.deliveries})`,
      crawlerRequests: sql<number>`sum(${table.crawlerRequests})`,
    })
    .from(table)
    .where(where)
    .groupBy(bucket);
}

/**
 * The counts of the newest day kept on a row (the fold, docs): a URL's on its `url_stats` row, the customer's on
 * their `usage_counters` row; if that day is in the range. `bucketed` puts its rows in their buckets.
 */
function latestDayOf(
  db: Db,
  table: typeof urlStats | typeof usageCounters,
  where: SQL | undefined,
  { from, to }: Omit<SeriesQuery, "url">,
) {
  return db
    .select({
      day: table.latestDay,
      requests: table.latestDayRequests,
      deliveries: table.latestDayDeliveries,
      crawlerRequests: table.latestDayCrawlerRequests,
    })
    .from(table)
    .where(and(where, between(table.latestDay, from, to)));
}

const bucketed = (days: Iterable<[day: string, Counts]>, { interval, from, to }: Omit<SeriesQuery, "url">) =>
  [...days]
    .filter(([day]) => day >= from && day <= to)
    .map(([day, counts]) => ({ bucket: bucketOf(day, interval), ...counts }));

/**
 * The series of the account (with what `held`, a reducer's peek, adds: held-counts.ts, read in the same transaction)
 * or of one URL (whose held views a reader cannot place: the route settles them first).
 */
export async function usageSeries(
  db: Db,
  userId: string,
  query: SeriesQuery,
  held: Held | null = null,
): Promise<TimeseriesPoint[]> {
  const { interval, from, to, url } = query;
  const days = (rows: ({ day: string } & Counts)[]) =>
    rows.map(({ day, ...counts }): [string, Counts] => [day, counts]);
  // The account's rows are a range of their primary key, and so are one URL's days and months.
  let rows: (Counts & { bucket: string })[];
  if (url === undefined) {
    const [sums, latest, ...unsettled] = await db.batch([
      bucketSums(
        db,
        dailyUsage,
        dailyUsage.day,
        and(eq(dailyUsage.userId, userId), between(dailyUsage.day, from, to)),
        interval,
      ),
      latestDayOf(db, usageCounters, eq(usageCounters.userId, userId), query),
      ...unsettledReads(db, userId, held),
    ]);
    rows = [
      ...sums,
      ...bucketed(days(latest), query),
      ...bucketed(Object.entries(unsettledCounts(held, unsettled).days), query),
    ];
  } else {
    const [sums, months, latest] = await Promise.all([
      bucketSums(
        db,
        urlDailyUsage,
        urlDailyUsage.day,
        and(eq(urlDailyUsage.userId, userId), eq(urlDailyUsage.url, url), between(urlDailyUsage.day, from, to)),
        interval,
      ),
      bucketSums(
        db,
        urlMonthlyUsage,
        urlMonthlyUsage.month,
        and(
          eq(urlMonthlyUsage.userId, userId),
          eq(urlMonthlyUsage.url, url),
          between(urlMonthlyUsage.month, `${from.slice(0, 7)}-01`, to),
        ),
        interval,
      ),
      latestDayOf(db, urlStats, and(eq(urlStats.userId, userId), eq(urlStats.url, url)), query),
    ]);
    rows = [...sums, ...months, ...bucketed(days(latest), query)];
  }
  const byBucket = new Map<string, Counts>();
  const first = bucketOf(from, interval);
  for (const row of rows) {
    // A month summed before the range's first day (the range starts within it) counts in the first bucket.
    const bucket = row.bucket < first ? first : row.bucket;
    const sum = byBucket.get(bucket) ?? { requests: 0, deliveries: 0, crawlerRequests: 0 };
    sum.requests += row.requests;
    sum.deliveries += row.deliveries;
    sum.crawlerRequests += row.crawlerRequests;
    byBucket.set(bucket, sum);
  }
  const points: TimeseriesPoint[] = [];
  for (let start = first; start <= to; start = nextBucket(start, interval)) {
    const row = byBucket.get(start);
    points.push({
      start: `${start}T00:00:00.000Z`,
      requests: row?.requests ?? 0,
      deliveries: row?.deliveries ?? 0,
      crawlerRequests: row?.crawlerRequests ?? 0,
    });
  }
  return points;
}

/**
 * The series a query asks of one customer (the customer's own route and the admin's): the last 30 days unless a
 * range is given, at most `TIMESERIES_MAX_DAYS` (a 400 past it), and a URL normalised with the customer's own
 * URL rules, as their page views were counted.
 */
export async function customerSeries(
  db: Db,
  customer: { id: string; ignoredParameters: readonly string[] },
  query: TimeseriesQuery,
  held: Held | null,
  now = Date.now(),
): Promise<TimeseriesPoint[]> {
  const { interval, from: asked, to = utcDay(now), url } = query;
  const from = asked ?? utcDay(Date.parse(to) - (TIMESERIES_DEFAULT_DAYS - 1) * DAY_MS);
  if (daysBetween(from, to) > TIMESERIES_MAX_DAYS) {
    throw new Refusal(400, `A series can reach at most ${formatNumber(TIMESERIES_MAX_DAYS)} days`);
  }
  const normalized = url === undefined ? undefined : normalizeUrl(url, customer.ignoredParameters);
  return usageSeries(db, customer.id, { interval, from, to, url: normalized }, held);
}
