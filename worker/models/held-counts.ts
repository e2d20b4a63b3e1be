/**
 * @module What a reader adds to the counters instead of settling (docs/analytics.md, "How reads see held counts"):
 * the page views a reducer holds of the customer (its `peek`, analytics/reducer.ts) and the settled sums not counted
 * yet (`analytics_pending` rows with reduced = 1), summed as the count would sum them (analytics/count.ts): per day,
 * per mapping, and what spends the plan's quota. A reader runs `unsettledReads` in the same `db.batch()` (one
 * transaction) as its counters, so it sees one moment of D1: a reducer's settle and its count are each one
 * transaction, and
 * - a settle of the customer since the peek moved their checkpoint to its position or past it: what the peek saw is
 *   then in the counters or in the pending rows read, never added twice;
 * - otherwise the reducer still holds what the peek saw, and the pending rows are older settles not counted yet.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { analyticsPending, reducerCheckpoints } from "../db/schema";

/** A held or settled sum as the count reads it (messages/analytics.ts `HeldSum`): `n` views of one day. */
export interface CountedSum {
  day: string;
  mappingId: number | null;
  crawler: 0 | 1;
  n: number;
  delivered: number;
  /** Of the customer's views settled with this sum, those (and the delivered ones) that spent no quota. */
  unbilled?: number;
  unbilledDelivered?: number;
}

export interface MappingCounts {
  requests: number;
  deliveries: number;
}

export interface DayCounts {
  requests: number;
  deliveries: number;
  crawlerRequests: number;
}

/**
 * A customer's views not in the counters yet: per day (YYYY-MM-DD), per mapping (its id; every view of an existing
 * mapping counts for it, on its URL's row or in `mapping_stats`), and what of them spends the plan's quota.
 */
export interface HeldCounts {
  days: Record<string, DayCounts>;
  mappings: Record<string, MappingCounts>;
  /** Spends the quota (`period_requests`, `period_deliveries`). */
  billed: { requests: number; deliveries: number };
  /** Spends none: known crawlers' and visitors' past their daily budget (`period_unbilled_*`). */
  unbilled: { requests: number; deliveries: number };
}

/** What a reducer answers without settling: the customer's held counts, and the last position it was handed. */
export interface HeldPeek {
  shard: number;
  position: number;
  counts: HeldCounts;
}

export const noHeldCounts = (): HeldCounts => ({
  days: {},
  mappings: {},
  billed: { requests: 0, deliveries: 0 },
  unbilled: { requests: 0, deliveries: 0 },
});

/** Adds sums to counts, as analytics/count.ts counts them (`BILLING`, `DAY_SUMS`). */
export function addSums(counts: HeldCounts, sums: Iterable<CountedSum>): HeldCounts {
  for (const sum of sums) {
    const day = (counts.days[sum.day] ??= { requests: 0, deliveries: 0, crawlerRequests: 0 });
    day.requests += sum.n;
    day.deliveries += sum.delivered;
    day.crawlerRequests += sum.n * sum.crawler;
    if (sum.mappingId !== null) {
      const mapping = (counts.mappings[sum.mappingId] ??= { requests: 0, deliveries: 0 });
      mapping.requests += sum.n;
      mapping.deliveries += sum.delivered;
    }
    const requests = sum.n * (1 - sum.crawler) - (sum.unbilled ?? 0);
    const deliveries = sum.delivered * (1 - sum.crawler) - (sum.unbilledDelivered ?? 0);
    counts.billed.requests += requests;
    counts.billed.deliveries += deliveries;
    counts.unbilled.requests += sum.n - requests;
    counts.unbilled.deliveries += sum.delivered - deliveries;
  }
  return counts;
}

function addCounts(into: HeldCounts, more: HeldCounts): HeldCounts {
  for (const [day, { requests, deliveries, crawlerRequests }] of Object.entries(more.days)) {
    const sum = (into.days[day] ??= { requests: 0, deliveries: 0, crawlerRequests: 0 });
    sum.requests += requests;
    sum.deliveries += deliveries;
    sum.crawlerRequests += crawlerRequests;
  }
  for (const [id, { requests, deliveries }] of Object.entries(more.mappings)) {
    const sum = (into.mappings[id] ??= { requests: 0, deliveries: 0 });
    sum.requests += requests;
    sum.deliveries += deliveries;
  }
  for (const key of ["billed", "unbilled"] as const) {
    into[key].requests += more[key].requests;
    into[key].deliveries += more[key].deliveries;
  }
  return into;
}

/** All requests of the counts (`total_requests`), and those of the days from `since` on (YYYY-MM-DD). */
export function heldRequests(counts: HeldCounts, since = ""): number {
  return Object.entries(counts.days).reduce((n, [day, sum]) => (day >= since ? n + sum.requests : n), 0);
}

/** The requests and deliveries of these mappings (ids) in the counts. */
export function heldOfMappings(counts: HeldCounts, ids: Iterable<number>): MappingCounts {
  const sum = { requests: 0, deliveries: 0 };
  for (const id of ids) {
    sum.requests += counts.mappings[id]?.requests ?? 0;
    sum.deliveries += counts.mappings[id]?.deliveries ?? 0;
  }
  return sum;
}

/**
 * The reads to batch with the counters: the customer's checkpoint in the peek's shard, and their settled sums that
 * wait in pending rows (`analytics_pending_reduced_idx`: only reduced rows are read).
 */
export function unsettledReads(db: Db, userId: string, peek: HeldPeek | null) {
  return [
    db
      .select({ through: reducerCheckpoints.through })
      .from(reducerCheckpoints)
      .where(and(eq(reducerCheckpoints.shard, peek?.shard ?? -1), eq(reducerCheckpoints.userId, userId))),
    db
      .select({ sum: sql<string>`v.value` })
      .from(sql`${analyticsPending} p, json_each(p.events) v`)
      .where(sql`p.reduced = 1 AND v.value ->> 'userId' = ${userId}`),
  ] as const;
}

type UnsettledRows = [{ through: number }[], { sum: string }[]];

/** What the reads of `unsettledReads` and the peek add to the counters read with them. */
export function unsettledCounts(peek: HeldPeek | null, [checkpoint, pending]: UnsettledRows): HeldCounts {
  const counts = addSums(
    noHeldCounts(),
    pending.map((row) => JSON.parse(row.sum) as CountedSum),
  );
  const settledSincePeek = peek !== null && (checkpoint[0]?.through ?? 0) >= peek.position;
  return peek && !settledSincePeek ? addCounts(counts, peek.counts) : counts;
}
