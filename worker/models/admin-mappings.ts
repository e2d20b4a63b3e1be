/**
 * @module The admin's reads and deletes of any customer's mappings: lists with a preview of the HTML (never all of
 * it), one mapping whole, the Websites & Events groups, and deleting (restorable by the customer for 30 days).
 */
import { and, count, eq, sql } from "drizzle-orm";
import { HTML_PREVIEW_CHARS } from "#contract/input-caps";
import type { Page, PageParams } from "#contract/page";
import type { AdminMapping, MappingGroup } from "#contract/responses";
import type { Seo } from "#contract/seo";
import type { Db } from "../db/client";
import { mappingStats, mappingTotals, urlMappings, users } from "../db/schema";
import { pageOf } from "./page";
import {
  deleteKeepingCopy,
  groupSums,
  mappingColumns,
  matches,
  newestFirst,
  newestIn,
  pageIds,
  toMapping,
} from "./mappings";

function withoutJsonLd(seo: Seo | null): Seo | null {
  if (!seo || !("jsonLd" in seo)) return seo;
  const { jsonLd: _, ...rest } = seo;
  return rest;
}

/** The admin's lists carry the start of the HTML and its length, never all of it. */
const previewColumns = {
  ...mappingColumns,
  htmlContent: sql<string>`substr(${urlMappings.htmlContent}, 1, ${HTML_PREVIEW_CHARS})`,
  htmlContentLength: sql<number>`length(${urlMappings.htmlContent})`,
  // JSON-LD can be 32 KB: a list carries the other SEO fields only. SQLite drops it where it can read the JSON; one
  // it cannot (nested deeper than 1,000 levels, stored before the cap) comes whole and is dropped here, so no such
  // row fails the page.
  seo: sql<Seo | null>`case when json_valid(${urlMappings.seo}) then json_remove(${urlMappings.seo}, '$.jsonLd')
    else ${urlMappings.seo} end`.mapWith((text: string) => withoutJsonLd(JSON.parse(text) as Seo)),
  // An experiment's variants hold up to 1 MB of HTML: a list carries none (the mapping's own page has them).
  experiment: sql<null>`null`,
};

export interface AdminMappingsQuery extends PageParams {
  searchTerm?: string;
  /** One customer's mappings only. */
  userId?: string;
  /** Only those whose URL, ignoring case and http(s)://, is this one (a group of the Websites & Events tab). */
  url?: string;
}

/**
 * Mappings with their owner's email, newest first, the HTML as a preview: every customer's (the admin's
 * "Event-Verwaltung"), or one customer's. `beforeCounts` is awaited with the page's owners before the mappings'
 * counters are read (the route settles what the analytics reducers hold of them).
 */
export async function listAdminMappings(
  db: Db,
  query: AdminMappingsQuery,
  beforeCounts?: (userIds: string[]) => Promise<void>,
): Promise<Page<AdminMapping>> {
  const where = and(
    query.userId ? eq(urlMappings.userId, query.userId) : undefined,
    query.url !== undefined ? eq(urlMappings.groupUrl, query.url) : undefined,
    matches(query.searchTerm),
  );
  const { ids, inPageOrder } = pageIds(db, where, query);
  if (beforeCounts) {
    const owners = await db
      .selectDistinct({ userId: urlMappings.userId })
      .from(ids)
      .innerJoin(urlMappings, eq(urlMappings.id, ids.id));
    await beforeCounts(owners.map((o) => o.userId));
  }
  return pageOf(
    db,
    db
      .select({ ...previewColumns, userEmail: users.email })
      .from(ids)
      .innerJoin(urlMappings, eq(urlMappings.id, ids.id))
      .innerJoin(users, eq(users.id, urlMappings.userId))
      .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
      .orderBy(...inPageOrder),
    db.select({ n: count() }).from(urlMappings).where(where),
    ({ userEmail, htmlContentLength, ...row }) => ({ ...toMapping(row), htmlContentLength, userEmail }),
  );
}

/** Whose mapping this is (null: none has the id). */
export async function ownerOfMapping(db: Db, id: number): Promise<string | null> {
  const [row] = await db.select({ userId: urlMappings.userId }).from(urlMappings).where(eq(urlMappings.id, id));
  return row?.userId ?? null;
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
 * A customer's mappings grouped by URL ignoring case and http(s):// (`group_url`, the admin's Websites & Events
 * tab): events, summed requests and deliveries; the group with the newest mapping first. Like the dashboard's
 * groups, the page walks the mappings newest first and keeps each group's newest (one probe of
 * `url_mappings_group_idx`), then sums the page's groups only.
 */
export async function listMappingGroups(db: Db, userId: string, page: PageParams): Promise<Page<MappingGroup>> {
  const [heads, [total]] = await Promise.all([
    db
      .select({ key: urlMappings.groupUrl, url: urlMappings.url, createdAt: urlMappings.createdAt })
      .from(urlMappings)
      .where(and(eq(urlMappings.userId, userId), newestIn(urlMappings.groupUrl)))
      .orderBy(...newestFirst)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: mappingTotals.groups }).from(mappingTotals).where(eq(mappingTotals.userId, userId)),
  ]);
  const byKey = await groupSums(
    db,
    userId,
    urlMappings.groupUrl,
    heads.map((h) => h.key!),
  );
  return {
    rows: heads.map((head) => ({
      key: head.key!,
      url: head.url,
      events: 0,
      totalRequests: 0,
      contentDeliveryCount: 0,
      ...byKey.get(head.key),
      lastCreatedAt: head.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
  };
}

/**
 * Deletes any customer's mapping (admins; the customer can restore it for 30 days); answers its owner and
 * normalised URL, or null when there is no such mapping.
 */
export async function deleteAnyMapping(db: Db, id: number): Promise<{ userId: string; normalizedUrl: string } | null> {
  const [deleted] = await deleteKeepingCopy(db, eq(urlMappings.id, id));
  return deleted ?? null;
}
