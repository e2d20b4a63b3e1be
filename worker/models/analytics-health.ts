/**
 * @module Whether page views are being counted, for the admin overview: the oldest view still pending, a handoff to
 * the reducers that keeps failing, the customers whose events the fold set aside (analytics/quarantine.ts), and what
 * could not be counted in the last days (analytics-losses.ts).
 */
import { asc, count, countDistinct, eq, gt, max, min, sql, sum } from "drizzle-orm";
import type { AnalyticsHealth } from "#contract/responses";
import type { Db } from "../db/client";
import { analyticsHandoffs, analyticsQuarantine, users } from "../db/schema";
import { utcDay } from "../lib/days";
import { LOSS_DAYS_SHOWN, recentLosses } from "./analytics-losses";

/** The oldest view still pending (its time in ms), read from the oldest pending row alone. */
export const OLDEST_PENDING = `SELECT min(v.value ->> 'timestamp') AS oldest
  FROM analytics_pending p, json_each(p.events) v WHERE p.seq = (SELECT min(seq) FROM analytics_pending)`;

/** Customers the overview lists. */
const LISTED = 20;

export async function analyticsHealth(
  db: Db,
  d1: D1Database,
  retries: number,
  now = new Date(),
): Promise<AnalyticsHealth> {
  const firstDayShown = utcDay(now.getTime() - (LOSS_DAYS_SHOWN - 1) * 86_400_000);
  const [oldest, [failing], [{ customers } = { customers: 0 }], listed, lost] = await Promise.all([
    d1.prepare(OLDEST_PENDING).first<{ oldest: number | null }>(),
    db
      .select({ failures: analyticsHandoffs.failures, lastError: analyticsHandoffs.lastError })
      .from(analyticsHandoffs)
      .where(gt(analyticsHandoffs.failures, 0))
      .orderBy(asc(analyticsHandoffs.fromSeq))
      .limit(1),
    db.select({ customers: countDistinct(analyticsQuarantine.userId) }).from(analyticsQuarantine),
    db
      .select({
        userId: analyticsQuarantine.userId,
        email: users.email,
        views: sum(analyticsQuarantine.views).mapWith(Number),
        reason: sql<string>`min(${analyticsQuarantine.reason})`,
        since: min(analyticsQuarantine.quarantinedAt),
        attempts: max(analyticsQuarantine.attempts),
        rows: count(),
      })
      .from(analyticsQuarantine)
      .innerJoin(users, eq(users.id, analyticsQuarantine.userId))
      .groupBy(analyticsQuarantine.userId)
      .orderBy(asc(min(analyticsQuarantine.quarantinedAt)))
      .limit(LISTED),
    recentLosses(db, firstDayShown),
  ]);
  return {
    oldestPendingSeconds: oldest?.oldest ? Math.max(0, Math.round((now.getTime() - oldest.oldest) / 1000)) : null,
    failingHandoff: failing ?? null,
    quarantinedCustomers: customers,
    quarantined: listed.map((q) => ({
      userId: q.userId,
      email: q.email,
      views: q.views,
      reason: q.reason,
      since: (q.since ?? now).toISOString(),
      retrying: (q.attempts ?? 0) < retries,
    })),
    lost,
  };
}
