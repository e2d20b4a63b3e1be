/**
 * @module What a customer has used, read from the rollups the analytics consumer keeps (`usage_counters`,
 * `daily_usage`, `url_stats`), never from raw analytics: each answer reads rows in proportion to what it shows. The
 * customer's totals add what a reducer holds (held-counts.ts), read in the same transaction.
 */
import { and, asc, count, desc, eq, gte, ne, sql } from "drizzle-orm";
import type { AnalyticsRow, Stats } from "#contract/responses";
import type { Db } from "../db/client";
import { chunksByJsonSize, containsText, inList, trigramCandidates } from "../db/expressions";
import {
  dailyUsage,
  deletedMappings,
  mappingTotals,
  urlMappings,
  urlStats,
  usageCounters,
  type User,
} from "../db/schema";
import { URL_STATS_SEARCH } from "../db/raw";
import type { Page, PageParams } from "#contract/page";
import { utcDay } from "../lib/days";
import {
  heldRequests,
  unsettledCounts,
  unsettledReads,
  unsettledUrls,
  type HeldPeek,
  type UrlSums,
} from "./held-counts";
import { pageOf } from "./page";

const DAY_MS = 86_400_000;
const LAST_MONTH_DAYS = 30;

/** The customer's requests, all time and of the last 30 days, with what `held` (a reducer's peek) adds. */
export async function userStats(db: Db, user: User, held: HeldPeek | null, now = Date.now()): Promise<Stats> {
  const since = utcDay(now - (LAST_MONTH_DAYS - 1) * DAY_MS);
  const [counters, lastMonth, ...unsettled] = await db.batch([
    db.select().from(usageCounters).where(eq(usageCounters.userId, user.id)),
    db
      .select({ hits: sql<number>`coalesce(sum(${dailyUsage.requests}), 0)` })
      .from(dailyUsage)
      .where(and(eq(dailyUsage.userId, user.id), gte(dailyUsage.day, since))),
    ...unsettledReads(db, user.id, held),
  ]);
  const counted = counters[0];
  const added = unsettledCounts(held, unsettled);
  // The newest day is on the customer's counters row (analytics/fold.ts).
  const newestDay = counted && counted.latestDay >= since ? counted.latestDayRequests : 0;
  return {
    totalRequests: (counted?.totalRequests ?? 0) + heldRequests(added),
    requestLimit: user.requestLimit,
    lastMonthRequests: (lastMonth[0]?.hits ?? 0) + newestDay + heldRequests(added, since),
  };
}

export interface AnalyticsQuery extends PageParams {
  searchTerm?: string;
  sortBy?: "url" | "timestamp";
  sortDirection?: "asc" | "desc";
}

/**
 * Hits per normalised URL, a page at a time; newest access first unless asked otherwise. One `url_stats` row per
 * URL, sorted by its primary key (url), or by Last Accessed: its hour from `url_stats_last_accessed_hour_idx`, then
 * within the hour on read (the same order as Last Accessed's own).
 */
export async function analyticsRows(db: Db, userId: string, query: AnalyticsQuery): Promise<Page<AnalyticsRow>> {
  const direction = query.sortDirection === "asc" ? asc : desc;
  const where = and(
    eq(urlStats.userId, userId),
    query.searchTerm ? trigramCandidates(urlStats.url, URL_STATS_SEARCH, query.searchTerm, "url") : undefined,
    query.searchTerm ? containsText(urlStats.url, query.searchTerm) : undefined,
  );
  return pageOf(
    db,
    db
      .select({ url: urlStats.url, totalHits: urlStats.hits, lastAccessed: urlStats.lastAccessed })
      .from(urlStats)
      .where(where)
      .orderBy(
        ...(query.sortBy === "url"
          ? [direction(urlStats.url)]
          : [direction(urlStats.lastAccessedHour), direction(urlStats.lastAccessed), direction(urlStats.url)]),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(urlStats).where(where),
    (r) => ({ url: r.url, totalHits: r.totalHits, lastAccessed: r.lastAccessed.toISOString() }),
  );
}

/**
 * Sorted by Last Accessed, how long views held may leave the rows they moved on a later page than their place: the
 * list adds held counts only while the customer's first held sum is younger than this, or none is of a row off the
 * first page sorted newest first (rows then only move up within it); otherwise it settles.
 */
export const HELD_ORDER_MAX_MS = 60_000;

/** Whether SQL's page still holds the rows it would hold with what is added (`HELD_ORDER_MAX_MS`). */
function pageStillHolds(held: HeldPeek, added: UrlSums, query: AnalyticsQuery, now: number): boolean {
  if (query.sortBy === "url") return true;
  if (query.offset === 0 && query.sortDirection !== "asc" && added.elsewhere === 0) return true;
  return held.heldSince === null || (held.heldSince > 0 && now - held.heldSince <= HELD_ORDER_MAX_MS);
}

/**
 * The page of `analyticsRows` with what is not on its rows yet (docs/analytics.md, "How reads see held counts"): its
 * URLs' rows read again in one transaction with the customer's checkpoint and settled sums waiting to be counted,
 * plus the peek's sums of those URLs while no settle since covered them; sorted by Last Accessed, the rows are sorted
 * again within the page (the page's bounds stay SQL's, `pageStillHolds`). Null when that would not be exact: a held
 * or waiting sum of a URL not known at handoff, which its count may put on a row not there yet or in "other pages";
 * or when the page's rows may be other ones by more than `HELD_ORDER_MAX_MS` of held views.
 */
export async function withUnsettledRows(
  db: Db,
  userId: string,
  page: Page<AnalyticsRow>,
  held: HeldPeek,
  query: AnalyticsQuery,
  now = Date.now(),
): Promise<Page<AnalyticsRow> | null> {
  if (held.newUrls > 0) return null;
  const urls = page.rows.map((row) => row.url);
  const [checkpoint, pending, ...rows] = await db.batch([
    ...unsettledReads(db, userId, held),
    ...chunksByJsonSize(urls).map((chunk) =>
      db
        .select({ url: urlStats.url, hits: urlStats.hits, lastAccessed: urlStats.lastAccessed })
        .from(urlStats)
        .where(and(eq(urlStats.userId, userId), inList(urlStats.url, chunk))),
    ),
  ]);
  const added = unsettledUrls(held, [checkpoint, pending], new Set(urls));
  if (added.newUrls > 0 || !pageStillHolds(held, added, query, now)) return null;
  const counted = new Map(rows.flat().map((row) => [row.url, row]));
  const shown = page.rows.map((row) => {
    const current = counted.get(row.url);
    // A row gone since (purged: not seen for long, so nothing of it held) shows as first read.
    if (!current) return row;
    const sum = added.urls[row.url];
    const lastAccessed = Math.max(current.lastAccessed.getTime(), sum?.lastAccessed ?? 0);
    return {
      url: row.url,
      totalHits: current.hits + (sum?.hits ?? 0),
      lastAccessed: new Date(lastAccessed).toISOString(),
    };
  });
  if (query.sortBy !== "url") {
    const sign = query.sortDirection === "asc" ? 1 : -1;
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const order = (a: AnalyticsRow, b: AnalyticsRow) =>
      byText(a.lastAccessed ?? "", b.lastAccessed ?? "") || byText(a.url, b.url);
    shown.sort((a, b) => sign * order(a, b));
  }
  return { rows: shown, total: page.total };
}

/**
 * Websites (distinct hostnames, from `mapping_totals`), events (mappings created this period, deleted ones
 * included: a range of `url_mappings_created_idx` and of `deleted_mappings_created_idx`) and deliveries this period; and what the period's views did not spend of the plan
 * (known crawlers', and visitors' past their daily share: docs/analytics.md).
 */
export async function usageOf(db: Db, user: User, held: HeldPeek | null) {
  const periodStart = user.billingPeriodStart ?? new Date(0);
  const [totals, events, deletedEvents, counters, ...unsettled] = await db.batch([
    db.select().from(mappingTotals).where(eq(mappingTotals.userId, user.id)),
    db
      .select({ n: count() })
      .from(urlMappings)
      .where(and(eq(urlMappings.userId, user.id), gte(urlMappings.createdAt, periodStart))),
    // A mapping deleted since is still an event of the period it was created in: deleting refunds nothing.
    db
      .select({ n: count() })
      .from(deletedMappings)
      .where(and(eq(deletedMappings.userId, user.id), gte(deletedMappings.createdAt, periodStart))),
    db.select().from(usageCounters).where(eq(usageCounters.userId, user.id)),
    ...unsettledReads(db, user.id, held),
  ]);
  // Held views count in the current period: a reducer settles a customer before their period ends (reducer.ts).
  const { billed, unbilled } = unsettledCounts(held, unsettled);
  return {
    activeWebsites: totals[0]?.hosts ?? 0,
    dynamicEvents: (events[0]?.n ?? 0) + (deletedEvents[0]?.n ?? 0),
    contentGenerations: (counters[0]?.periodDeliveries ?? 0) + billed.deliveries,
    notBilled: {
      requests: (counters[0]?.periodUnbilledRequests ?? 0) + unbilled.requests,
      contentGenerations: (counters[0]?.periodUnbilledDeliveries ?? 0) + unbilled.deliveries,
    },
  };
}

/**
 * Whether the customer has a mapping on this website already, besides the one `except` names (a probe of
 * `url_mappings_host_idx`).
 */
export async function hasWebsite(db: Db, userId: string, host: string, except?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: urlMappings.id })
    .from(urlMappings)
    .where(
      and(
        eq(urlMappings.userId, userId),
        eq(urlMappings.host, host),
        except === undefined ? undefined : ne(urlMappings.id, except),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Of these websites, those the customer has a mapping on (one statement, a probe of `url_mappings_host_idx` each). */
export async function hostsWithMappings(db: Db, userId: string, hosts: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunksByJsonSize(hosts)) {
    const rows = await db
      .selectDistinct({ host: urlMappings.host })
      .from(urlMappings)
      .where(and(eq(urlMappings.userId, userId), inList(urlMappings.host, chunk)));
    for (const row of rows) found.add(row.host!);
  }
  return found;
}
