/**
 * @module The customer's usage over time (`GET /api/analytics/timeseries`, docs/analytics.md): sums of the daily
 * rollups (`daily_usage`, one row per customer and day) per day, week or month, every bucket of the range present
 * (zeros where nothing was asked). Reads one row per day of the range, whatever the traffic.
 */
import { and, between, eq, sql } from "drizzle-orm";
import type { Interval, TimeseriesPoint } from "../contract/timeseries";
import type { Db } from "../db/client";
import { dailyUsage } from "../db/schema";

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

const BUCKET_SQL = {
  day: sql<string>`${dailyUsage.day}`,
  week: sql<string>`date(${dailyUsage.day}, '-6 days', 'weekday 1')`,
  month: sql<string>`substr(${dailyUsage.day}, 1, 7) || '-01'`,
};

/** Days of the range `from`..`to` (inclusive, YYYY-MM-DD). */
export const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;

export async function usageSeries(
  db: Db,
  userId: string,
  { interval, from, to }: { interval: Interval; from: string; to: string },
): Promise<TimeseriesPoint[]> {
  const bucket = BUCKET_SQL[interval];
  const rows = await db
    .select({
      bucket,
      requests: sql<number>`sum(${dailyUsage.requests})`,
      deliveries: sql<number>`sum(${dailyUsage.deliveries})`,
      crawlerRequests: sql<number>`sum(${dailyUsage.crawlerRequests})`,
    })
    .from(dailyUsage)
    .where(and(eq(dailyUsage.userId, userId), between(dailyUsage.day, from, to)))
    .groupBy(bucket);
  const byBucket = new Map(rows.map((r) => [r.bucket, r]));
  const points: TimeseriesPoint[] = [];
  for (let start = bucketOf(from, interval); start <= to; start = nextBucket(start, interval)) {
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
