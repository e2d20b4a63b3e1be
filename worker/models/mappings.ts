/**
 * @module URL mappings: a customer's page URL and the HTML delivered there. Lists page in SQL (models/page.ts);
 * the admin's lists carry a preview of the HTML, never all of it.
 */
import { and, asc, count, desc, eq, gt, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { HTML_PREVIEW_CHARS } from "../contract/input-caps";
import type { AdminMapping, Mapping, MappingGroup } from "../contract/responses";
import { normalizeUrl } from "../contract/normalize-url";
import type { Db } from "../db/client";
import { containsText, inList } from "../db/expressions";
import { mappingStats, urlMappings, users } from "../db/schema";
import type { Page, PageParams } from "./page";

const mappingColumns = {
  id: urlMappings.id,
  userId: urlMappings.userId,
  url: urlMappings.url,
  htmlContent: urlMappings.htmlContent,
  createdAt: urlMappings.createdAt,
  publishedAt: urlMappings.publishedAt,
  totalRequests: sql<number>`coalesce(${mappingStats.requests}, 0)`,
  contentDeliveryCount: sql<number>`coalesce(${mappingStats.deliveries}, 0)`,
};

type MappingRow = {
  id: number;
  userId: string;
  url: string;
  htmlContent: string;
  createdAt: Date;
  publishedAt: Date | null;
  totalRequests: number;
  contentDeliveryCount: number;
};

function toMapping(row: MappingRow): Mapping {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    publishedAt: row.publishedAt ? row.publishedAt.toISOString() : null,
  };
}

export interface MappingsQuery extends PageParams {
  searchTerm?: string;
  group?: "url";
}

/** URL or HTML content contains the term, ignoring case (SPEC.md §2's search). */
const matches = (term: string | undefined): SQL | undefined =>
  term?.trim()
    ? or(containsText(urlMappings.url, term.trim()), containsText(urlMappings.htmlContent, term.trim()))
    : undefined;

/** A customer's mappings, newest first; with `group: "url"` one per normalised URL (see `mappingsQuery`). */
export async function listMappings(db: Db, userId: string, query: MappingsQuery): Promise<Page<Mapping>> {
  if (query.group === "url") return listMappingsByUrl(db, userId, query);
  const where = and(eq(urlMappings.userId, userId), matches(query.searchTerm));
  const [rows, [total]] = await Promise.all([
    db
      .select(mappingColumns)
      .from(urlMappings)
      .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
      .where(where)
      .orderBy(desc(urlMappings.createdAt), desc(urlMappings.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(urlMappings).where(where),
  ]);
  return { rows: rows.map(toMapping), total: total?.n ?? 0 };
}

interface GroupedRow {
  id: number;
  user_id: string;
  url: string;
  html_content: string;
  created_at: number;
  published_at: number | null;
  group_requests: number;
  group_deliveries: number;
  total: number;
}

/**
 * SPEC.md §2's dashboard rows: per normalised URL the newest mapping, with the requests and deliveries of the
 * whole group; newest first. The search looks at each group's newest mapping, as the table shows it.
 */
async function listMappingsByUrl(db: Db, userId: string, query: MappingsQuery): Promise<Page<Mapping>> {
  const term = query.searchTerm?.trim();
  const search = term
    ? sql`and (instr(lower(m.url), lower(${term})) > 0 or instr(lower(m.html_content), lower(${term})) > 0)`
    : sql``;
  const rows = await db.all<GroupedRow>(sql`
    with ranked as (
      select g.id,
        row_number() over (partition by g.normalized_url order by g.created_at desc, g.id desc) as rn,
        sum(coalesce(s.requests, 0)) over (partition by g.normalized_url) as group_requests,
        sum(coalesce(s.deliveries, 0)) over (partition by g.normalized_url) as group_deliveries
      from ${urlMappings} g left join ${mappingStats} s on s.mapping_id = g.id
      where g.user_id = ${userId}
    )
    select m.id, m.user_id, m.url, m.html_content, m.created_at, m.published_at,
      r.group_requests, r.group_deliveries, count(*) over () as total
    from ranked r join ${urlMappings} m on m.id = r.id
    where r.rn = 1 ${search}
    order by m.created_at desc, m.id desc
    limit ${query.limit} offset ${query.offset}`);
  const total = rows[0]?.total ?? (query.offset > 0 ? await countUrlGroups(db, userId, term) : 0);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      url: r.url,
      htmlContent: r.html_content,
      createdAt: new Date(r.created_at).toISOString(),
      publishedAt: r.published_at === null ? null : new Date(r.published_at).toISOString(),
      totalRequests: r.group_requests,
      contentDeliveryCount: r.group_deliveries,
    })),
    total,
  };
}

/** The number of dashboard rows (for a page past the end, where the page query has no row to carry it). */
async function countUrlGroups(db: Db, userId: string, term: string | undefined): Promise<number> {
  const search = term
    ? sql`and (instr(lower(m.url), lower(${term})) > 0 or instr(lower(m.html_content), lower(${term})) > 0)`
    : sql``;
  const [row] = await db.all<{ n: number }>(sql`
    select count(*) as n from (
      select g.id, row_number() over (partition by g.normalized_url order by g.created_at desc, g.id desc) as rn
      from ${urlMappings} g where g.user_id = ${userId}
    ) r join ${urlMappings} m on m.id = r.id
    where r.rn = 1 ${search}`);
  return row?.n ?? 0;
}

async function getMapping(db: Db, userId: string, id: number): Promise<Mapping | null> {
  const [row] = await db
    .select(mappingColumns)
    .from(urlMappings)
    .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)));
  return row ? toMapping(row) : null;
}

/** A new mapping is published at once. */
export async function createMapping(db: Db, userId: string, url: string, htmlContent: string, now = new Date()) {
  const [row] = await db
    .insert(urlMappings)
    .values({ userId, url, normalizedUrl: normalizeUrl(url), htmlContent, publishedAt: now, createdAt: now })
    .returning({ id: urlMappings.id });
  return (await getMapping(db, userId, row!.id))!;
}

/**
 * Deletes one of the customer's own mappings; answers its normalised URL (whose delivery entry the caller
 * rewrites), or null when there is no such mapping of theirs.
 */
export async function deleteMapping(db: Db, userId: string, id: number): Promise<string | null> {
  const [deleted] = await db
    .delete(urlMappings)
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)))
    .returning({ normalizedUrl: urlMappings.normalizedUrl });
  return deleted?.normalizedUrl ?? null;
}

export async function setMappingPublished(db: Db, userId: string, id: number, published: boolean) {
  const updated = await db
    .update(urlMappings)
    .set({ publishedAt: published ? new Date() : null })
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)))
    .returning({ id: urlMappings.id });
  return updated.length ? getMapping(db, userId, id) : null;
}

const published = isNotNull(urlMappings.publishedAt);

/**
 * The mapping delivered at one of the customer's URLs: the newest published one (two may share a normalised
 * URL). One probe of `url_mappings_delivery_idx`, whatever the number of the customer's mappings.
 */
export async function deliveredMapping(db: Db, userId: string, normalizedUrl: string) {
  const [row] = await db
    .select({ id: urlMappings.id, htmlContent: urlMappings.htmlContent })
    .from(urlMappings)
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.normalizedUrl, normalizedUrl), published))
    .orderBy(desc(urlMappings.createdAt), desc(urlMappings.id))
    .limit(1);
  return row;
}

/** No newer published mapping shares the row's normalised URL: the row is the one delivered there. */
const newestPublished = sql`not exists (select 1 from ${urlMappings} newer
  where newer.user_id = ${urlMappings.userId} and newer.normalized_url = ${urlMappings.normalizedUrl}
    and newer.published_at is not null
    and (newer.created_at > ${urlMappings.createdAt}
      or (newer.created_at = ${urlMappings.createdAt} and newer.id > ${urlMappings.id})))`;

/** One page of the mappings the customer's URLs deliver, by normalised URL after `afterUrl` (a rebuild's pages). */
export async function deliveredMappingsPage(db: Db, userId: string, afterUrl: string, limit: number) {
  return db
    .select({ id: urlMappings.id, normalizedUrl: urlMappings.normalizedUrl, htmlContent: urlMappings.htmlContent })
    .from(urlMappings)
    .where(and(eq(urlMappings.userId, userId), published, gt(urlMappings.normalizedUrl, afterUrl), newestPublished))
    .orderBy(asc(urlMappings.normalizedUrl))
    .limit(limit);
}

/** Which of these mapping ids are still delivered at their URL for the customer, with that URL. */
export async function stillDeliveredMappings(db: Db, userId: string, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: urlMappings.id, normalizedUrl: urlMappings.normalizedUrl })
    .from(urlMappings)
    .where(and(eq(urlMappings.userId, userId), inList(urlMappings.id, ids), published, newestPublished));
}

/** The admin's lists carry the start of the HTML and its length, never all of it. */
const previewColumns = {
  ...mappingColumns,
  htmlContent: sql<string>`substr(${urlMappings.htmlContent}, 1, ${HTML_PREVIEW_CHARS})`,
  htmlContentLength: sql<number>`length(${urlMappings.htmlContent})`,
};

export interface AdminMappingsQuery extends PageParams {
  searchTerm?: string;
  /** One customer's mappings only. */
  userId?: string;
  /** Only those whose URL, ignoring case and http(s)://, is this one (a group of the Websites & Events tab). */
  url?: string;
}

/** The URL ignoring case and the http(s):// prefix, nothing else: what the admin's Websites & Events tab groups by. */
const urlWithoutScheme = sql<string>`(case
  when lower(trim(${urlMappings.url})) like 'https://%' then substr(lower(trim(${urlMappings.url})), 9)
  when lower(trim(${urlMappings.url})) like 'http://%' then substr(lower(trim(${urlMappings.url})), 8)
  else lower(trim(${urlMappings.url})) end)`;

/**
 * Mappings with their owner's email, newest first, the HTML as a preview: every customer's (the admin's
 * "Event-Verwaltung"), or one customer's.
 */
export async function listAdminMappings(db: Db, query: AdminMappingsQuery): Promise<Page<AdminMapping>> {
  const where = and(
    query.userId ? eq(urlMappings.userId, query.userId) : undefined,
    query.url !== undefined ? eq(urlWithoutScheme, query.url) : undefined,
    matches(query.searchTerm),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...previewColumns, userEmail: users.email })
      .from(urlMappings)
      .innerJoin(users, eq(users.id, urlMappings.userId))
      .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
      .where(where)
      .orderBy(desc(urlMappings.createdAt), desc(urlMappings.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(urlMappings).where(where),
  ]);
  return {
    rows: rows.map(({ userEmail, htmlContentLength, ...row }) => ({ ...toMapping(row), htmlContentLength, userEmail })),
    total: total?.n ?? 0,
  };
}

/** One mapping with all its HTML, for an admin who opens it from a list. */
export async function getAnyMapping(db: Db, id: number): Promise<AdminMapping | null> {
  const [row] = await db
    .select({ ...mappingColumns, userEmail: users.email })
    .from(urlMappings)
    .innerJoin(users, eq(users.id, urlMappings.userId))
    .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
    .where(eq(urlMappings.id, id));
  return row ? { ...toMapping(row), userEmail: row.userEmail } : null;
}

/**
 * A customer's mappings grouped by URL ignoring case and http(s):// (the admin's Websites & Events tab): events,
 * summed requests and deliveries; the group with the newest mapping first.
 */
export async function listMappingGroups(db: Db, userId: string, page: PageParams): Promise<Page<MappingGroup>> {
  const where = eq(urlMappings.userId, userId);
  const lastCreatedAt = sql<number>`max(${urlMappings.createdAt})`;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        key: urlWithoutScheme,
        // SQLite takes a bare column from the row that holds the max(): the newest mapping's URL as written.
        url: urlMappings.url,
        events: count(),
        totalRequests: sql<number>`coalesce(sum(${mappingStats.requests}), 0)`,
        contentDeliveryCount: sql<number>`coalesce(sum(${mappingStats.deliveries}), 0)`,
        lastCreatedAt,
      })
      .from(urlMappings)
      .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
      .where(where)
      .groupBy(urlWithoutScheme)
      .orderBy(desc(lastCreatedAt), urlWithoutScheme)
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: sql<number>`count(distinct ${urlWithoutScheme})` })
      .from(urlMappings)
      .where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, lastCreatedAt: new Date(r.lastCreatedAt).toISOString() })),
    total: total?.n ?? 0,
  };
}

/**
 * Deletes any customer's mapping (admins); answers its owner and normalised URL, or null when there is no such
 * mapping.
 */
export async function deleteAnyMapping(db: Db, id: number): Promise<{ userId: string; normalizedUrl: string } | null> {
  const [deleted] = await db
    .delete(urlMappings)
    .where(eq(urlMappings.id, id))
    .returning({ userId: urlMappings.userId, normalizedUrl: urlMappings.normalizedUrl });
  return deleted ?? null;
}
