/**
 * @module What a customer has used, read from the rollups the analytics consumer keeps (`usage_counters`,
 * `daily_usage`, `url_stats`), never from raw analytics: each answer reads rows in proportion to what it shows. The
 * customer's totals add what a reducer holds (held-counts.ts), read in the same transaction.
 */
import { and, asc, count, desc, eq, gte, ne, sql } from "drizzle-orm";
import { OTHER_PAGES, type AnalyticsRow, type Stats } from "#contract/responses";
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
import { heldRequests, unsettledCounts, unsettledReads, unsettledUrls, type HeldViews } from "./held-counts";
import { pageOf } from "./page";

const DAY_MS = 86_400_000;
const LAST_MONTH_DAYS = 30;

/** The customer's requests, all time and of the last 30 days, with what `held` (a reducer's peek) adds. */
export async function userStats(db: Db, user: User, held: HeldViews | null, now = Date.now()): Promise<Stats> {
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

/** The customer's rows the list shows: all of them, or those whose URL contains the search term. */
function listedWhere(userId: string, searchTerm?: string) {
  return and(
    eq(urlStats.userId, userId),
    searchTerm ? trigramCandidates(urlStats.url, URL_STATS_SEARCH, searchTerm, "url") : undefined,
    searchTerm ? containsText(urlStats.url, searchTerm) : undefined,
  );
}

const LIST_ROW = { url: urlStats.url, totalHits: urlStats.hits, lastAccessed: urlStats.lastAccessed };

type ListRow = { url: string; totalHits: number; lastAccessed: Date };

const shownRow = (r: ListRow): AnalyticsRow => ({
  url: r.url,
  totalHits: r.totalHits,
  lastAccessed: r.lastAccessed.toISOString(),
});

/** The page's rows, in the list's order (`analyticsRows`). */
function pageRows(db: Db, userId: string, query: AnalyticsQuery) {
  const direction = query.sortDirection === "asc" ? asc : desc;
  return db
    .select(LIST_ROW)
    .from(urlStats)
    .where(listedWhere(userId, query.searchTerm))
    .orderBy(
      ...(query.sortBy === "url"
        ? [direction(urlStats.url)]
        : [direction(urlStats.lastAccessedHour), direction(urlStats.lastAccessed), direction(urlStats.url)]),
    )
    .limit(query.limit)
    .offset(query.offset);
}

/**
 * Hits per normalised URL, a page at a time; newest access first unless asked otherwise. One `url_stats` row per
 * URL, sorted by its primary key (url), or by Last Accessed: its hour from `url_stats_last_accessed_hour_idx`, then
 * within the hour on read (the same order as Last Accessed's own).
 */
export async function analyticsRows(db: Db, userId: string, query: AnalyticsQuery): Promise<Page<AnalyticsRow>> {
  return pageOf(
    db,
    pageRows(db, userId, query),
    db.select({ n: count() }).from(urlStats).where(listedWhere(userId, query.searchTerm)),
    shownRow,
  );
}

/**
 * Sorted by Last Accessed past the first page, how long views held may leave the rows they moved on a later page
 * than their place: the list adds held counts only while the customer's first held sum is younger than this;
 * otherwise it settles. (The first page takes the rows of the newest held views in: `withUnsettledRows`.)
 */
export const HELD_ORDER_MAX_MS = 60_000;

/** The rows of the newest held views a peek is asked for: the first page newest first takes them in. */
export const recentRowsFor = (query: AnalyticsQuery): number =>
  query.offset === 0 && query.sortBy !== "url" && query.sortDirection !== "asc" ? query.limit : 0;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** SQL's order by Last Accessed (`analyticsRows`), oldest first: the time, then the URL. */
const byLastAccessed = (a: AnalyticsRow, b: AnalyticsRow) =>
  byText(a.lastAccessed ?? "", b.lastAccessed ?? "") || byText(a.url, b.url);

/**
 * Why the analytics list settles rather than add held counts (`withUnsettledRows`; "no peek": no reducer could say
 * what it holds). The bench counts them (scripts/perf/bench/platform.ts).
 */
export type ListSettleReason =
  | "no peek"
  | "a reducer did not answer"
  | "new URL held"
  | "page changed"
  | "new URL waiting"
  | "row not there"
  | "recent rows not all asked"
  | "waiting sum off the page"
  | "search with more held rows"
  | "row past the page's last"
  | "held too long for a later page";

/**
 * The page of `analyticsRows` with what is not on its rows yet (docs/analytics.md, "How reads see held counts"),
 * read in one transaction: the page's rows again, the customer's checkpoint and settled sums waiting to be counted,
 * and by key the "other pages" row and, on the first page newest first, the rows of the newest held views
 * (`recentRowsFor`). Each row adds its waiting sums, and the peek's while no settle since covered them. When that
 * would not be exact it answers why (`ListSettleReason`), and the route settles:
 * - a reducer that may hold the customer's views did not answer;
 * - a held or waiting view whose row was not sure at handoff (`newUrlDays`): its count may give its URL a row; or a
 *   sum of a row not there (the first "other pages" row, a row purged since), which its count makes;
 * - the page's rows changed since the first read (a settle counted in between);
 * - sorted by Last Accessed: newest first, a waiting sum of a row not read, or with a search term more rows with
 *   held views than asked; oldest first, a full page whose row got newer than its last; past the first page, held
 *   views older than `HELD_ORDER_MAX_MS`.
 */
export async function withUnsettledRows(
  db: Db,
  userId: string,
  page: Page<AnalyticsRow>,
  held: HeldViews,
  query: AnalyticsQuery,
  now = Date.now(),
): Promise<Page<AnalyticsRow> | ListSettleReason> {
  if (!held.complete) return "a reducer did not answer";
  if (Object.keys(held.newUrlDays).length > 0) return "new URL held";
  const onPage = new Set(page.rows.map((row) => row.url));
  const newestFirst = recentRowsFor(query) > 0;
  const byKey = [...new Set([OTHER_PAGES, ...(newestFirst ? held.recent : [])])].filter((key) => !onPage.has(key));
  const listed = query.searchTerm ? containsText(urlStats.url, query.searchTerm) : sql`1`;
  const [checkpoint, pending, sqlPage, ...others] = await db.batch([
    ...unsettledReads(db, userId, held),
    pageRows(db, userId, query),
    ...chunksByJsonSize(byKey).map((chunk) =>
      db
        // Named: D1 would put a column named "1" first (an integer-like key of the row object it builds).
        .select({ ...LIST_ROW, listed: sql<number>`${listed}`.as("listed") })
        .from(urlStats)
        .where(and(eq(urlStats.userId, userId), inList(urlStats.url, chunk))),
    ),
  ]);
  if (sqlPage.length !== onPage.size || sqlPage.some((row) => !onPage.has(row.url))) return "page changed";
  const rows = new Map<string, ListRow & { listed: number }>(others.flat().map((row) => [row.url, row]));
  for (const row of sqlPage) rows.set(row.url, { ...row, listed: 1 });
  const added = unsettledUrls(held, [checkpoint, pending], new Set([...onPage, ...byKey]));
  if (Object.keys(added.newUrlDays).length > 0) return "new URL waiting";
  if (Object.keys(added.urls).some((key) => !rows.has(key))) return "row not there";

  const shown = (row: ListRow): AnalyticsRow => {
    const sum = added.urls[row.url];
    return {
      url: row.url,
      totalHits: row.totalHits + (sum?.hits ?? 0),
      lastAccessed: new Date(Math.max(row.lastAccessed.getTime(), sum?.lastAccessed ?? 0)).toISOString(),
    };
  };
  const shownPage = sqlPage.map(shown);
  if (query.sortBy === "url") return { rows: shownPage, total: page.total };
  if (newestFirst) {
    // The newest rows are among SQL's page (rows only get newer), the rows of the newest held views (any other's
    // are older than those) and of the waiting sums: all read, so the page is theirs, newest first.
    // (A peek not asked for as many rows as the page holds cannot say which those are.)
    if (!held.recentAll && held.recent.length < query.limit) return "recent rows not all asked";
    if (added.settledElsewhere > 0) return "waiting sum off the page";
    if (query.searchTerm && !held.recentAll) return "search with more held rows";
    const candidates = [...rows.values()].filter((row) => row.listed).map(shown);
    return { rows: candidates.sort((a, b) => byLastAccessed(b, a)).slice(0, query.limit), total: page.total };
  }
  if (query.offset === 0) {
    // Oldest first, rows off the page are newer than its last, and only get newer: the page holds unless one of its
    // rows moved past its last.
    const last = sqlPage.at(-1);
    const full = sqlPage.length === query.limit;
    if (full && last && shownPage.some((row) => byLastAccessed(row, shownRow(last)) > 0)) {
      return "row past the page's last";
    }
  } else if (held.heldSince !== null && !(held.heldSince > 0 && now - held.heldSince <= HELD_ORDER_MAX_MS)) {
    return "held too long for a later page";
  }
  const sign = query.sortDirection === "asc" ? 1 : -1;
  return { rows: shownPage.sort((a, b) => sign * byLastAccessed(a, b)), total: page.total };
}

/**
 * Websites (distinct hostnames, from `mapping_totals`), events (mappings created this period, deleted ones
 * included: a range of `url_mappings_created_idx` and of `deleted_mappings_created_idx`) and deliveries this period; and what the period's views did not spend of the plan
 * (known crawlers', and visitors' past their daily share: docs/analytics.md).
 */
export async function usageOf(db: Db, user: User, held: HeldViews | null) {
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
  // HeldViews views count in the current period: a reducer settles a customer before their period ends (reducer.ts).
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
