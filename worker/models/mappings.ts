/**
 * @module A customer's URL mappings: their page URL and the HTML delivered there; lists (paged in SQL), creating,
 * changing, publishing and deleting (restorable for 30 days). What delivery reads is in delivered-mappings.ts, the
 * admin's lists and deletes in admin-mappings.ts; both build on the columns and helpers exported here.
 */
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Mapping } from "#contract/responses";
import { normalizeUrl } from "#contract/normalize-url";
import { DEFAULT_PLACEMENT, isDefaultPlacement, type Placement } from "#contract/placement";
import type { Publication } from "#contract/publication";
import type { Audience, StoredHoldout } from "#contract/audiences";
import type { StoredExperiment } from "#contract/experiments";
import { hasSeo, type Seo } from "#contract/seo";
import type { MatchKind } from "#contract/url-rules";
import { withPlacementMisses } from "./placement-health";
import type { Db } from "../db/client";
import { containsText, inList, trigramCandidates } from "../db/expressions";
import { deletedMappings, mappingStats, mappingTotals, urlMappings, urlStats } from "../db/schema";
import { URL_MAPPINGS_SEARCH } from "../db/raw";
import type { Page, PageParams } from "#contract/page";
import { experimentAnswer } from "./experiments";
import { holdoutAnswer } from "./holdouts";
import { heldOfMappings, unsettledCounts, unsettledReads, type HeldCounts, type Held } from "./held-counts";

/**
 * An exact mapping's counts kept on its URL's `url_stats` row (analytics/fold.ts), which its `mapping_stats` row's
 * add to: one probe of the row's key.
 */
function onUrlRow(column: "mapping_requests" | "mapping_deliveries") {
  return sql<number>`coalesce((select s.${sql.identifier(column)} from ${urlStats} s
    where s.user_id = ${urlMappings.userId} and s.url = ${urlMappings.normalizedUrl}
      and s.mapping_id = ${urlMappings.id}), 0)`;
}

export const mappingColumns = {
  id: urlMappings.id,
  userId: urlMappings.userId,
  url: urlMappings.url,
  htmlContent: urlMappings.htmlContent,
  placement: urlMappings.placement,
  seo: urlMappings.seo,
  experiment: urlMappings.experiment,
  audience: urlMappings.audience,
  priority: urlMappings.priority,
  holdout: urlMappings.holdout,
  createdAt: urlMappings.createdAt,
  publishedAt: urlMappings.publishedAt,
  publishAt: urlMappings.publishAt,
  unpublishAt: urlMappings.unpublishAt,
  totalRequests: sql<number>`coalesce(${mappingStats.requests}, 0) + ${onUrlRow("mapping_requests")}`,
  contentDeliveryCount: sql<number>`coalesce(${mappingStats.deliveries}, 0) + ${onUrlRow("mapping_deliveries")}`,
  match: sql<MatchKind>`case when ${urlMappings.normalizedUrl} like '%/*' then 'prefix' else 'exact' end`,
};

type MappingRow = {
  id: number;
  userId: string;
  url: string;
  htmlContent: string;
  placement: Placement | null;
  seo: Seo | null;
  experiment: StoredExperiment | null;
  audience: Audience | null;
  priority: number;
  holdout: StoredHoldout | null;
  createdAt: Date;
  publishedAt: Date | null;
  publishAt: Date | null;
  unpublishAt: Date | null;
  totalRequests: number;
  contentDeliveryCount: number;
  match: MatchKind;
};

export function toMapping({ experiment, audience, priority, holdout, ...row }: MappingRow): Mapping {
  return {
    ...row,
    ...(audience ? { audience, priority } : {}),
    placement: row.placement ?? DEFAULT_PLACEMENT,
    seo: row.seo ?? {},
    createdAt: row.createdAt.toISOString(),
    publishedAt: row.publishedAt ? row.publishedAt.toISOString() : null,
    publishAt: row.publishAt ? row.publishAt.toISOString() : null,
    unpublishAt: row.unpublishAt ? row.unpublishAt.toISOString() : null,
    ...experimentAnswer(experiment, row.htmlContent),
    ...holdoutAnswer(holdout),
  };
}

export interface MappingsQuery extends PageParams {
  searchTerm?: string;
  group?: "url";
}

/**
 * URL or HTML content contains the term, ignoring case (SPEC.md §2's search): candidates from the trigram index
 * `url_mappings_search` (db/raw.ts), checked exactly, so a search never reads every mapping's HTML.
 */
export const matches = (term: string | undefined): SQL | undefined => {
  const trimmed = term?.trim();
  if (!trimmed) return undefined;
  return and(
    trigramCandidates(urlMappings.id, URL_MAPPINGS_SEARCH, trimmed),
    or(containsText(urlMappings.url, trimmed), containsText(urlMappings.htmlContent, trimmed)),
  );
};

export const newestFirst = [desc(urlMappings.createdAt), desc(urlMappings.id)];

/**
 * The ids of one page of mappings, newest first, found on an index alone (`url_mappings_created_idx` or
 * `_recent_idx`, which end in the id): a deep offset skips index entries, and only the page's rows are read.
 * The outer query sorts by `inPageOrder`, the page's own columns, so that SQLite walks the page and looks up its
 * rows, rather than walking every mapping to find the page's.
 */
export function pageIds(db: Db, where: SQL | undefined, page: PageParams) {
  const ids = db
    .select({ id: urlMappings.id, createdAt: urlMappings.createdAt })
    .from(urlMappings)
    .where(where)
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(page.offset)
    .as("page_ids");
  return { ids, inPageOrder: [desc(ids.createdAt), desc(ids.id)] };
}

/**
 * A customer's mappings, newest first; with `group: "url"` one per normalised URL (see `mappingsQuery`). Their counts
 * add what `held` (a reducer's peek) and the pending settled sums hold (held-counts.ts), read in the counts' batch.
 * A row whose selector missed carries `placementMisses`.
 */
export async function listMappings(
  db: Db,
  userId: string,
  query: MappingsQuery,
  held: Held | null,
): Promise<Page<Mapping>> {
  return withPlacementMisses(db, await listMappingRows(db, userId, query, held));
}

async function listMappingRows(
  db: Db,
  userId: string,
  query: MappingsQuery,
  held: Held | null,
): Promise<Page<Mapping>> {
  if (query.group === "url") return listMappingsByUrl(db, userId, query, held);
  const where = and(eq(urlMappings.userId, userId), matches(query.searchTerm));
  const { ids, inPageOrder } = pageIds(db, where, query);
  const [found, [total], ...unsettled] = await db.batch([
    db
      .select(mappingColumns)
      .from(ids)
      .innerJoin(urlMappings, eq(urlMappings.id, ids.id))
      .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
      .orderBy(...inPageOrder),
    db.select({ n: count() }).from(urlMappings).where(where),
    ...unsettledReads(db, userId, held),
  ]);
  const added = unsettledCounts(held, unsettled);
  return { rows: found.map((row) => toMapping(withHeld(row, added))), total: total?.n ?? 0 };
}

/** A mapping's row with what the counts not in the counters yet hold of it (held-counts.ts). */
function withHeld(row: MappingRow, added: HeldCounts): MappingRow {
  const { requests, deliveries } = heldOfMappings(added, [row.id]);
  return {
    ...row,
    totalRequests: row.totalRequests + requests,
    contentDeliveryCount: row.contentDeliveryCount + deliveries,
  };
}

/**
 * No newer mapping of the customer with the same `group` column (normalised URL, or the admin's group URL): the
 * row heads its group. One index probe: "newer" is a row value, which SQLite answers within the group's index
 * entries, where the same test spelt with OR was answered over every newer mapping of the customer (quadratic in a
 * rebuild of 100,000 mappings).
 */
export const newestIn = (group: typeof urlMappings.normalizedUrl | typeof urlMappings.groupUrl) =>
  sql`not exists (select 1 from ${urlMappings} newer
    where newer.user_id = ${urlMappings.userId} and newer.${sql.identifier(group.name)} = ${group}
      and (newer.created_at, newer.id) > (${urlMappings.createdAt}, ${urlMappings.id}))`;

interface GroupSums {
  events: number;
  totalRequests: number;
  contentDeliveryCount: number;
}

/**
 * Of a group's mappings, the counts their URL's rows hold (`onUrlRow`). Grouped by normalised URL, the group has one
 * such row, and the mapping it names is always one of the group's (the triggers on `url_mappings` clear it when the
 * mapping leaves the URL): one probe per group, not per mapping. Grouped otherwise (the admin's group URL, where
 * mappings of one normalised URL may fall in different groups), the row counts for the mapping it names.
 */
function urlRowSum(
  group: typeof urlMappings.normalizedUrl | typeof urlMappings.groupUrl,
  column: "mapping_requests" | "mapping_deliveries",
) {
  return group === urlMappings.normalizedUrl
    ? sql<number>`coalesce((select s.${sql.identifier(column)} from ${urlStats} s
        where s.user_id = ${urlMappings.userId} and s.url = ${urlMappings.normalizedUrl}), 0)`
    : sql<number>`sum(${onUrlRow(column)})`;
}

/**
 * Per group key of a page (at most a page of keys): its mappings, and their requests and deliveries summed, plus what
 * the pending settled sums and `held` (a reducer's peek; null for a caller that settled first) hold of the group's
 * mappings (held-counts.ts), read in the same batch.
 */
export async function groupSums(
  db: Db,
  userId: string,
  group: typeof urlMappings.normalizedUrl | typeof urlMappings.groupUrl,
  keys: string[],
  held: Held | null = null,
): Promise<Map<string | null, GroupSums>> {
  if (keys.length === 0) return new Map();
  const [rows, ...unsettled] = await db.batch([
    db
      .select({
        key: group,
        ids: sql<string>`json_group_array(${urlMappings.id})`,
        events: count(),
        totalRequests: sql<number>`coalesce(sum(${mappingStats.requests}), 0) + ${urlRowSum(group, "mapping_requests")}`,
        contentDeliveryCount: sql<number>`coalesce(sum(${mappingStats.deliveries}), 0)
        + ${urlRowSum(group, "mapping_deliveries")}`,
      })
      .from(urlMappings)
      .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
      .where(and(eq(urlMappings.userId, userId), inList(group, keys)))
      .groupBy(group),
    ...unsettledReads(db, userId, held),
  ]);
  const added = unsettledCounts(held, unsettled);
  return new Map(
    rows.map(({ key, ids, ...sums }) => {
      const { requests, deliveries } = heldOfMappings(added, JSON.parse(ids) as number[]);
      return [
        key,
        {
          ...sums,
          totalRequests: sums.totalRequests + requests,
          contentDeliveryCount: sums.contentDeliveryCount + deliveries,
        },
      ];
    }),
  );
}

/**
 * SPEC.md §2's dashboard rows: per normalised URL the newest mapping, with the requests and deliveries of the
 * whole group; newest first. The search looks at each group's newest mapping, as the table shows it.
 *
 * The page walks the customer's mappings newest first (`url_mappings_created_idx`) and keeps those that head their
 * group (one probe of `url_mappings_user_idx` each), so it reads about `offset + limit` rows, never every
 * mapping; the group sums are read for the page's URLs only.
 */
async function listMappingsByUrl(
  db: Db,
  userId: string,
  query: MappingsQuery,
  held: Held | null,
): Promise<Page<Mapping>> {
  const where = and(eq(urlMappings.userId, userId), matches(query.searchTerm), newestIn(urlMappings.normalizedUrl));
  const [heads, [total]] = await Promise.all([
    db
      .select({ ...mappingColumns, normalizedUrl: urlMappings.normalizedUrl })
      .from(urlMappings)
      .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
      .where(where)
      .orderBy(...newestFirst)
      .limit(query.limit)
      .offset(query.offset),
    query.searchTerm?.trim()
      ? db.select({ n: count() }).from(urlMappings).where(where)
      : db.select({ n: mappingTotals.urls }).from(mappingTotals).where(eq(mappingTotals.userId, userId)),
  ]);
  const byUrl = await groupSums(
    db,
    userId,
    urlMappings.normalizedUrl,
    heads.map((h) => h.normalizedUrl),
    held,
  );
  return {
    rows: heads.map(({ normalizedUrl, ...head }) => ({
      ...toMapping(head),
      totalRequests: byUrl.get(normalizedUrl)?.totalRequests ?? 0,
      contentDeliveryCount: byUrl.get(normalizedUrl)?.contentDeliveryCount ?? 0,
      urlMappingCount: byUrl.get(normalizedUrl)?.events ?? 1,
    })),
    total: total?.n ?? 0,
  };
}

export async function getMapping(db: Db, userId: string, id: number): Promise<Mapping | null> {
  const [row] = await db
    .select(mappingColumns)
    .from(urlMappings)
    .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)));
  return row ? toMapping(row) : null;
}

/**
 * A page of all the customer's mappings, oldest first, after the cursor (the last row's `createdAt` and id): what
 * an export walks, on `url_mappings_created_idx`; their counts with what `held` adds (held-counts.ts).
 */
export async function mappingsAfter(
  db: Db,
  userId: string,
  after: { createdAt: number; id: number },
  limit: number,
  held: Held | null,
): Promise<Mapping[]> {
  const [rows, ...unsettled] = await db.batch([
    db
      .select(mappingColumns)
      .from(urlMappings)
      .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
      .where(
        and(
          eq(urlMappings.userId, userId),
          sql`(${urlMappings.createdAt}, ${urlMappings.id}) > (${after.createdAt}, ${after.id})`,
        ),
      )
      .orderBy(asc(urlMappings.createdAt), asc(urlMappings.id))
      .limit(limit),
    ...unsettledReads(db, userId, held),
  ]);
  const added = unsettledCounts(held, unsettled);
  return rows.map((row) => toMapping(withHeld(row, added)));
}

/**
 * A mapping's optional extras as stored: null for the defaults, so that rows without them stay as they were. An
 * `experiment` given (null: none) replaces the mapping's (models/experiments.ts `experimentChange` makes it).
 */
export interface MappingExtras {
  placement?: Placement;
  seo?: Seo;
  experiment?: StoredExperiment | null;
  /** Null: the URL's fallback again. */
  audience?: Audience | null;
  priority?: number;
  /** Null: none (models/holdouts.ts `holdoutChange` makes it). */
  holdout?: StoredHoldout | null;
}

export const storedExtras = (extras: MappingExtras) => ({
  ...(extras.placement ? { placement: isDefaultPlacement(extras.placement) ? null : extras.placement } : {}),
  ...(extras.seo ? { seo: hasSeo(extras.seo) ? extras.seo : null } : {}),
  ...(extras.experiment === undefined ? {} : { experiment: extras.experiment }),
  ...(extras.audience === undefined ? {} : { audience: extras.audience }),
  ...(extras.priority === undefined ? {} : { priority: extras.priority }),
  ...(extras.holdout === undefined ? {} : { holdout: extras.holdout }),
});

/** SPEC.md's new mapping: published at once, nothing scheduled. */
export const publishedNow = (now: Date): Publication => ({ publishedAt: now, publishAt: null, unpublishAt: null });

/**
 * A new mapping, published at once unless `publication` says otherwise. `normalizedUrl`: as the customer's URL rules normalise `url` (their own
 * ignored parameters included).
 */
export async function createMapping(
  db: Db,
  userId: string,
  url: string,
  htmlContent: string,
  normalizedUrl = normalizeUrl(url),
  extras: MappingExtras = {},
  now = new Date(),
  publication: Publication = publishedNow(now),
) {
  const [row] = await db
    .insert(urlMappings)
    .values({
      userId,
      url,
      normalizedUrl,
      htmlContent,
      ...storedExtras(extras),
      ...publication,
      changedBy: "customer",
      createdAt: now,
    })
    .returning({ id: urlMappings.id });
  return (await getMapping(db, userId, row!.id))!;
}

/**
 * Deletes the mappings `where` names, keeping a copy of each for 30 days so that it can be restored
 * (models/deleted-mappings.ts): both in one transaction. Answers each one's owner and normalised URL.
 */
export async function deleteKeepingCopy(db: Db, where: SQL, now = new Date()) {
  const [, deleted] = await db.batch([
    db
      .insert(deletedMappings)
      .select(
        db
          .select({
            id: urlMappings.id,
            userId: urlMappings.userId,
            url: urlMappings.url,
            normalizedUrl: urlMappings.normalizedUrl,
            htmlContent: urlMappings.htmlContent,
            placement: urlMappings.placement,
            seo: urlMappings.seo,
            publishedAt: urlMappings.publishedAt,
            publishAt: urlMappings.publishAt,
            unpublishAt: urlMappings.unpublishAt,
            changedBy: urlMappings.changedBy,
            experiment: urlMappings.experiment,
            audience: urlMappings.audience,
            priority: urlMappings.priority,
            holdout: urlMappings.holdout,
            createdAt: urlMappings.createdAt,
            deletedAt: sql`${now.getTime()}`.as("deleted_at"),
          })
          .from(urlMappings)
          .where(where),
      )
      .onConflictDoNothing(),
    db
      .delete(urlMappings)
      .where(where)
      .returning({ userId: urlMappings.userId, normalizedUrl: urlMappings.normalizedUrl }),
  ]);
  return deleted;
}

/** Mappings of a URL deleted per statement pair: their HTML (up to 256 KB each) is copied in one statement. */
const GROUP_DELETE_CHUNK = 100;
/** Mappings of a URL deleted per request: a bound on one request's D1 time (docs/scaling.md). */
export const GROUP_DELETE_MAX = 5_000;

/**
 * Deletes the customer's mapping `id` and every other mapping of its normalised URL (each restorable for 30
 * days), oldest first, so that a request cut short leaves the newest, the one delivered before, in place. Deletes
 * at most GROUP_DELETE_MAX; answers how many it deleted, how many of the URL are left, and the URL (whose delivery
 * entry the caller rewrites), or null when there is no such mapping of theirs.
 */
export async function deleteUrlGroup(db: Db, userId: string, id: number) {
  const own = await getOwnMapping(db, userId, id);
  if (!own) return null;
  const ofUrl = and(eq(urlMappings.userId, userId), eq(urlMappings.normalizedUrl, own.normalizedUrl))!;
  let deleted = 0;
  for (let chunk = GROUP_DELETE_CHUNK; chunk === GROUP_DELETE_CHUNK && deleted < GROUP_DELETE_MAX;) {
    const oldest = db
      .select({ id: urlMappings.id })
      .from(urlMappings)
      .where(ofUrl)
      .orderBy(asc(urlMappings.createdAt), asc(urlMappings.id))
      .limit(Math.min(GROUP_DELETE_CHUNK, GROUP_DELETE_MAX - deleted));
    chunk = (await deleteKeepingCopy(db, and(ofUrl, inArray(urlMappings.id, oldest))!)).length;
    deleted += chunk;
  }
  const [left] = await db.select({ n: count() }).from(urlMappings).where(ofUrl);
  return { deleted, remaining: left?.n ?? 0, normalizedUrl: own.normalizedUrl };
}

/**
 * Deletes one of the customer's own mappings (restorable for 30 days); answers its normalised URL (whose delivery
 * entry the caller rewrites), or null when there is no such mapping of theirs.
 */
export async function deleteMapping(db: Db, userId: string, id: number): Promise<string | null> {
  const [deleted] = await deleteKeepingCopy(db, and(eq(urlMappings.userId, userId), eq(urlMappings.id, id))!);
  return deleted?.normalizedUrl ?? null;
}

/** What `changeMapping` changes: any of a mapping's URL, HTML, extras and publication. */
export interface MappingChange extends MappingExtras, Partial<Publication> {
  url?: string;
  normalizedUrl?: string;
  htmlContent?: string;
}

/**
 * Changes one of the customer's mappings in place (`PATCH /api/mappings/{id}`); answers it with its normalised
 * URL before and after (whose delivery entries the caller rewrites), or null when there is no such mapping of theirs.
 * The URL before is read in the same transaction as the update, so that two edits at once each name the URL they
 * really moved the mapping from.
 */
export async function changeMapping(db: Db, userId: string, id: number, change: MappingChange) {
  const { url, normalizedUrl, htmlContent, publishedAt, publishAt, unpublishAt, ...extras } = change;
  const own = and(eq(urlMappings.userId, userId), eq(urlMappings.id, id));
  const [[before], [after]] = await db.batch([
    db.select({ normalizedUrl: urlMappings.normalizedUrl }).from(urlMappings).where(own),
    db
      .update(urlMappings)
      .set({
        url,
        normalizedUrl,
        htmlContent,
        publishedAt,
        publishAt,
        unpublishAt,
        ...storedExtras(extras),
        changedBy: "customer",
      })
      .where(own)
      .returning({ normalizedUrl: urlMappings.normalizedUrl }),
  ]);
  if (!before || !after) return null;
  return {
    /** Null when a delete came in between. */
    mapping: await getMapping(db, userId, id),
    normalizedUrls: [...new Set([before.normalizedUrl, after.normalizedUrl])],
  };
}

/** One of the customer's mappings with its normalised URL and publication, or null. */
export async function getOwnMapping(db: Db, userId: string, id: number) {
  const [row] = await db
    .select({
      normalizedUrl: urlMappings.normalizedUrl,
      publishedAt: urlMappings.publishedAt,
      publishAt: urlMappings.publishAt,
      unpublishAt: urlMappings.unpublishAt,
      experiment: urlMappings.experiment,
      audience: urlMappings.audience,
      holdout: urlMappings.holdout,
    })
    .from(urlMappings)
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)));
  return row ?? null;
}

/**
 * Publishes or unpublishes one of the customer's mappings; answers it with its normalised URL, or null. Either
 * ends a pending publish time; unpublishing ends a pending unpublish time too (docs/publishing.md).
 */
export async function setMappingPublished(db: Db, userId: string, id: number, published: boolean) {
  const [updated] = await db
    .update(urlMappings)
    .set({
      ...(published
        ? { publishedAt: new Date(), publishAt: null }
        : { publishedAt: null, publishAt: null, unpublishAt: null }),
      changedBy: "customer",
    })
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)))
    .returning({ normalizedUrl: urlMappings.normalizedUrl });
  return updated ? { mapping: (await getMapping(db, userId, id))!, normalizedUrl: updated.normalizedUrl } : null;
}
