/** @module URL mappings: a customer's page URL and the HTML delivered there. */
import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { AdminMapping, Mapping } from "../contract/responses";
import { normalizeUrl } from "../contract/normalize-url";
import type { Db } from "../db/client";
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

/** Deletes one of the customer's own mappings; false when there is no such mapping of theirs. */
export async function deleteMapping(db: Db, userId: string, id: number): Promise<boolean> {
  const deleted = await db
    .delete(urlMappings)
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)))
    .returning({ id: urlMappings.id });
  return deleted.length > 0;
}

export async function setMappingPublished(db: Db, userId: string, id: number, published: boolean) {
  const updated = await db
    .update(urlMappings)
    .set({ publishedAt: published ? new Date() : null })
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)))
    .returning({ id: urlMappings.id });
  return updated.length ? getMapping(db, userId, id) : null;
}

/** Published mappings, newest first: what the delivery document is built from. */
export async function listPublishedMappings(db: Db, userId: string) {
  return db
    .select({ id: urlMappings.id, normalizedUrl: urlMappings.normalizedUrl, htmlContent: urlMappings.htmlContent })
    .from(urlMappings)
    .where(and(eq(urlMappings.userId, userId), isNotNull(urlMappings.publishedAt)))
    .orderBy(desc(urlMappings.createdAt), desc(urlMappings.id));
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

/** Deletes any customer's mapping (admins); answers its owner's id, or null when there is no such mapping. */
export async function deleteAnyMapping(db: Db, id: number): Promise<string | null> {
  const [deleted] = await db
    .delete(urlMappings)
    .where(eq(urlMappings.id, id))
    .returning({ userId: urlMappings.userId });
  return deleted?.userId ?? null;
}
