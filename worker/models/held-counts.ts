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
import { and, eq, inArray, sql } from "drizzle-orm";
import { OTHER_PAGES } from "#contract/responses";
import type { Db } from "../db/client";
import { analyticsPending, reducerCheckpoints } from "../db/schema";
import { tooLongForARow } from "./url-rows";

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
  /** The row its views count on, when sure at handoff (`HeldSum.known`): 1 the URL's, 2 "other pages". */
  known?: 0 | 1 | 2;
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

/** A row's views not on it yet, summed over days, mappings and the crawler flag as the `url_stats` row sums them. */
export interface UrlCounts {
  hits: number;
  deliveries: number;
  /** The newest view's time (epoch ms). */
  lastAccessed: number;
}

/**
 * Sums per row (`rowKeyOf`), of the rows asked for and of "other pages"; how many sums were of rows not asked; and
 * per day, the views whose row a count may still choose.
 */
export interface UrlSums {
  /**
   * Per day, the views whose row was not sure at handoff (`known` 0) of URLs not too long for a row (url-rows.ts):
   * a count may give such a URL a row of its own (while its day's new URLs, `UNMAPPED_URLS_PER_DAY`, last).
   */
  newUrlDays: Record<string, UrlCounts>;
  /** Sums of rows not asked for (not on the page shown). */
  elsewhere: number;
  /** By row (`rowKeyOf`): the URL's, or `OTHER_PAGES` (always answered). */
  urls: Record<string, UrlCounts>;
}

/**
 * What a reducer answers without settling: the customer's held counts, the last position it was handed, and the
 * held sums of the rows asked for (a page of the analytics list) and of its most recent held rows.
 */
export interface HeldPeek extends UrlSums {
  shard: number;
  position: number;
  counts: HeldCounts;
  /** When the first of the customer's held sums came (epoch ms; 0: not known, after a restart); null: none held. */
  heldSince: number | null;
  /** The rows (`rowKeyOf`) of the customer's newest held views, newest first, as many as asked; in `urls` too. */
  recent: string[];
  /** Whether `recent` holds every row of theirs with held views. */
  recentAll: boolean;
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

/**
 * The row a sum's views count on (analytics/count.ts `ROWS`): its URL's when known at handoff (`known` 1); otherwise
 * "other pages", which is sure for a URL too long for a row and when its day's new URLs were used up at handoff
 * (`known` 2), and not for the others (`UrlSums.newUrlDays`: a reader settles them).
 */
export const rowKeyOf = (sum: CountedSum): string => (sum.known === 1 ? sum.url : OTHER_PAGES);

function addTo(into: Record<string, UrlCounts>, key: string, more: UrlCounts) {
  const sum = (into[key] ??= { hits: 0, deliveries: 0, lastAccessed: 0 });
  sum.hits += more.hits;
  sum.deliveries += more.deliveries;
  sum.lastAccessed = Math.max(sum.lastAccessed, more.lastAccessed);
}

/** The sums per row of the rows `keys` and of "other pages", and what `UrlSums` says of the others. */
export function urlSums(sums: Iterable<CountedSum>, keys: ReadonlySet<string>): UrlSums {
  const found: UrlSums = { newUrlDays: {}, elsewhere: 0, urls: {} };
  for (const sum of sums) {
    const counts = { hits: sum.n, deliveries: sum.delivered, lastAccessed: sum.timestamp };
    if (!sum.known && !tooLongForARow(sum.url)) addTo(found.newUrlDays, sum.day, counts);
    const key = rowKeyOf(sum);
    if (key === OTHER_PAGES || keys.has(key)) addTo(found.urls, key, counts);
    else found.elsewhere += 1;
  }
  return found;
}

/**
 * The `limit` rows whose held views are newest (newest first, then by URL, as the analytics list sorts newest
 * first), and whether that is all of them.
 */
export function recentRows(sums: Iterable<CountedSum>, limit: number): { recent: string[]; recentAll: boolean } {
  const newest = new Map<string, number>();
  for (const sum of sums) {
    const key = rowKeyOf(sum);
    newest.set(key, Math.max(newest.get(key) ?? 0, sum.timestamp));
  }
  const recent = [...newest]
    .sort(([a, at], [b, bt]) => bt - at || (a < b ? 1 : a > b ? -1 : 0))
    .slice(0, limit)
    .map(([key]) => key);
  return { recent, recentAll: newest.size <= limit };
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
 * What the reducers that may hold the customer's views answered (analytics/reducer-shards.ts `heldBy`): a peek per
 * shard that answered, and what a reader needs of them at once.
 */
export interface Held {
  peeks: HeldPeek[];
  /** Whether every shard answered: a list that adds held rows is exact only then. */
  complete: boolean;
  /** `HeldPeek.newUrlDays` of every peek. */
  newUrlDays: Record<string, UrlCounts>;
  /** The rows of the newest held views of all peeks, newest first, as many as asked; `recentAll` as a peek's. */
  recent: string[];
  recentAll: boolean;
  /** The first held sum's time over every peek (0: one does not know), null: none held. */
  heldSince: number | null;
}

/**
 * The peeks of the shards that answered, out of `asked`, as one `Held`: each was asked for the rows `urls` and the
 * `recent` rows of its newest held views. Of a peek's recent rows, those not among the newest of all are left out
 * of its `urls` (counted `elsewhere`), as one peek of them all would have answered.
 */
export function heldOf(peeks: HeldPeek[], asked: number, urls: readonly string[], recent: number): Held {
  const newUrlDays: Record<string, UrlCounts> = {};
  const newest = new Map<string, number>();
  let heldSince: number | null = null;
  for (const peek of peeks) {
    for (const [day, held] of Object.entries(peek.newUrlDays)) addTo(newUrlDays, day, held);
    for (const key of peek.recent) newest.set(key, Math.max(newest.get(key) ?? 0, peek.urls[key]?.lastAccessed ?? 0));
    if (peek.heldSince !== null) heldSince = heldSince === null ? peek.heldSince : Math.min(heldSince, peek.heldSince);
  }
  // A shard not holding every row of its newest held views holds none newer than its last one listed: the newest
  // rows of all are among the peeks' lists.
  const sorted = [...newest].sort(([a, at], [b, bt]) => bt - at || (a < b ? 1 : a > b ? -1 : 0)).map(([key]) => key);
  const newestOfAll = sorted.slice(0, recent);
  const shown = new Set([OTHER_PAGES, ...urls, ...newestOfAll]);
  for (const peek of peeks) {
    for (const key of peek.recent) {
      if (shown.has(key) || !(key in peek.urls)) continue;
      delete peek.urls[key];
      peek.elsewhere += 1;
    }
  }
  return {
    peeks,
    complete: peeks.length === asked,
    newUrlDays,
    recent: newestOfAll,
    recentAll: peeks.every((peek) => peek.recentAll) && sorted.length <= recent,
    heldSince,
  };
}

/**
 * The reads to batch with the counters: the customer's checkpoints in the peeks' shards, and their settled sums that
 * wait in pending rows (`analytics_pending_reduced_idx`: only reduced rows are read).
 */
export function unsettledReads(db: Db, userId: string, held: Held | null) {
  const shards = held?.peeks.map((peek) => peek.shard) ?? [];
  return [
    db
      .select({ shard: reducerCheckpoints.shard, through: reducerCheckpoints.through })
      .from(reducerCheckpoints)
      .where(
        and(
          inArray(reducerCheckpoints.shard, shards.length > 0 ? shards : [-1]),
          eq(reducerCheckpoints.userId, userId),
        ),
      ),
    db
      .select({ sum: sql<string>`v.value` })
      .from(sql`${analyticsPending} p, json_each(p.events) v`)
      .where(sql`p.reduced = 1 AND v.value ->> 'userId' = ${userId}`),
  ] as const;
}

type UnsettledRows = [{ shard: number; through: number }[], { sum: string }[]];

/**
 * The peeks whose reducer still held what they saw when the reads ran: no settle of the customer in that shard since
 * moved their checkpoint to the peek's position (what it saw is then in the counters or the pending rows read).
 */
function stillHeld(held: Held | null, checkpoints: UnsettledRows[0]): HeldPeek[] {
  const through = new Map(checkpoints.map((row) => [row.shard, row.through]));
  return (held?.peeks ?? []).filter((peek) => (through.get(peek.shard) ?? 0) < peek.position);
}

const pendingSums = (pending: UnsettledRows[1]) => pending.map((row) => JSON.parse(row.sum) as CountedSum);

/** What the reads of `unsettledReads` and the peeks add to the counters read with them. */
export function unsettledCounts(held: Held | null, [checkpoints, pending]: UnsettledRows): HeldCounts {
  const counts = addSums(noHeldCounts(), pendingSums(pending));
  for (const peek of stillHeld(held, checkpoints)) addCounts(counts, peek.counts);
  return counts;
}

/** The sums of `unsettledUrls`, and how many of the settled sums waiting to be counted were of rows not asked. */
export interface UnsettledUrls extends UrlSums {
  settledElsewhere: number;
}

/**
 * What the reads of `unsettledReads` and the peeks add to the `url_stats` rows `keys` (and "other pages") read with
 * them: the settled sums waiting to be counted, and each peek's while no settle since covered it.
 */
export function unsettledUrls(
  held: Held | null,
  [checkpoints, pending]: UnsettledRows,
  keys: ReadonlySet<string>,
): UnsettledUrls {
  const settled = urlSums(pendingSums(pending), keys);
  const found = { ...settled, settledElsewhere: settled.elsewhere };
  for (const peek of stillHeld(held, checkpoints)) {
    found.elsewhere += peek.elsewhere;
    for (const [day, counts] of Object.entries(peek.newUrlDays)) addTo(found.newUrlDays, day, counts);
    for (const [key, counts] of Object.entries(peek.urls)) addTo(found.urls, key, counts);
  }
  return found;
}
