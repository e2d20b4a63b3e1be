/** @module URL mappings: a customer's page URL and the HTML delivered there. */
import { and, asc, desc, eq, gt, isNotNull, sql } from "drizzle-orm";
import type { AdminMapping, Mapping } from "../contract/responses";
import { normalizeUrl } from "../contract/normalize-url";
import type { Db } from "../db/client";
import { inList } from "../db/expressions";
import { mappingStats, urlMappings, users } from "../db/schema";

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

export async function listMappings(db: Db, userId: string): Promise<Mapping[]> {
  const rows = await db
    .select(mappingColumns)
    .from(urlMappings)
    .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
    .where(eq(urlMappings.userId, userId))
    .orderBy(desc(urlMappings.createdAt), desc(urlMappings.id));
  return rows.map(toMapping);
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

/** Every customer's mappings with the owner's email, newest first (the admin's "Event-Verwaltung"). */
export async function listAllMappings(db: Db): Promise<AdminMapping[]> {
  const rows = await db
    .select({ ...mappingColumns, userEmail: users.email })
    .from(urlMappings)
    .innerJoin(users, eq(users.id, urlMappings.userId))
    .leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id))
    .orderBy(desc(urlMappings.createdAt), desc(urlMappings.id));
  return rows.map(({ userEmail, ...row }) => ({ ...toMapping(row), userEmail }));
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
