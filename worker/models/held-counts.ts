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
  url: string;
  day: string;
  mappingId: number | null;
  crawler: 0 | 1;
  n: number;
  delivered: number;
  /** Of the customer's views settled with this sum, those (and the delivered ones) that spent no quota. */
  unbilled?: number;
  unbilledDelivered?: number;
  timestamp: number;
  /** 1 when its views count on the URL's existing `url_stats` row (known at handoff: `HeldSum.known`). */
  known?: 0 | 1;
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

/** A URL's views not on its `url_stats` row yet, summed over days, mappings and the crawler flag as the row sums them. */
export interface UrlCounts {
  hits: number;
  deliveries: number;
  /** The newest view's time (epoch ms). */
  lastAccessed: number;
}

/** Sums per URL, of the URLs asked for; how many of all the sums had a URL not known at handoff, or not asked. */
export interface UrlSums {
  /** Sums a count may place on a row not there yet or in "other pages" (their URL not `known`). */
  newUrls: number;
  /** Sums of URLs not asked for (rows not on the page shown). */
  elsewhere: number;
  urls: Record<string, UrlCounts>;
}

/**
 * What a reducer answers without settling: the customer's held counts, the last position it was handed, and the
 * held sums of the URLs asked for (a page of the analytics list; none asked: `urls` is empty).
 */
export interface HeldPeek extends UrlSums {
  shard: number;
  position: number;
  counts: HeldCounts;
  /** When the first of the customer's held sums came (epoch ms; 0: not known, after a restart); null: none held. */
  heldSince: number | null;
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

/** The sums of `urls` per URL, and how many of all the sums had their URL not known (`UrlSums`). */
export function urlSums(sums: Iterable<CountedSum>, urls: ReadonlySet<string>): UrlSums {
  const found: UrlSums = { newUrls: 0, elsewhere: 0, urls: {} };
  for (const sum of sums) {
    if (!sum.known) found.newUrls += 1;
    if (!urls.has(sum.url)) {
      found.elsewhere += 1;
      continue;
    }
    const url = (found.urls[sum.url] ??= { hits: 0, deliveries: 0, lastAccessed: 0 });
    url.hits += sum.n;
    url.deliveries += sum.delivered;
    url.lastAccessed = Math.max(url.lastAccessed, sum.timestamp);
  }
  return found;
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

/**
 * Whether the reducer still held what the peek saw when the reads ran: no settle of the customer since moved their
 * checkpoint to the peek's position (what it saw is then in the counters or the pending rows read).
 */
const stillHeld = (peek: HeldPeek | null, checkpoint: UnsettledRows[0]): peek is HeldPeek =>
  peek !== null && (checkpoint[0]?.through ?? 0) < peek.position;

const pendingSums = (pending: UnsettledRows[1]) => pending.map((row) => JSON.parse(row.sum) as CountedSum);

/** What the reads of `unsettledReads` and the peek add to the counters read with them. */
export function unsettledCounts(peek: HeldPeek | null, [checkpoint, pending]: UnsettledRows): HeldCounts {
  const counts = addSums(noHeldCounts(), pendingSums(pending));
  return stillHeld(peek, checkpoint) ? addCounts(counts, peek.counts) : counts;
}

/**
 * What the reads of `unsettledReads` and the peek (asked for `urls`) add to those URLs' `url_stats` rows read with
 * them; `newUrls` counts the sums among them that a count may place elsewhere (then the rows are not exact).
 */
export function unsettledUrls(
  peek: HeldPeek | null,
  [checkpoint, pending]: UnsettledRows,
  urls: ReadonlySet<string>,
): UrlSums {
  const found = urlSums(pendingSums(pending), urls);
  if (!stillHeld(peek, checkpoint)) return found;
  found.newUrls += peek.newUrls;
  found.elsewhere += peek.elsewhere;
  for (const [url, held] of Object.entries(peek.urls)) {
    const sum = (found.urls[url] ??= { hits: 0, deliveries: 0, lastAccessed: 0 });
    sum.hits += held.hits;
    sum.deliveries += held.deliveries;
    sum.lastAccessed = Math.max(sum.lastAccessed, held.lastAccessed);
  }
  return found;
}
