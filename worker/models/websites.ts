/** @module Customers' websites as delivery targets (schema.ts `websites`): one customer per hostname. */
import { asc, count, eq } from "drizzle-orm";
import type { Website } from "../contract/responses";
import type { WebsiteMode } from "../contract/schemas";
import type { Db } from "../db/client";
import { websites, type Website as WebsiteRow } from "../db/schema";
import type { Page, PageParams } from "./page";

export function toWebsite(row: WebsiteRow): Website {
  return {
    hostname: row.hostname,
    origin: row.origin,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Sets the customer's website at `hostname` (created or changed), in one statement: null when another customer
 * holds the hostname, which stays theirs unchanged.
 */
export async function claimWebsite(
  db: Db,
  userId: string,
  hostname: string,
  settings: { origin: string; mode: WebsiteMode },
  now = new Date(),
): Promise<{ website: Website; created: boolean } | null> {
  const [row] = await db
    .insert(websites)
    .values({ hostname, userId, ...settings, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: websites.hostname,
      set: { origin: settings.origin, mode: settings.mode, updatedAt: now },
      setWhere: eq(websites.userId, userId),
    })
    .returning();
  return row ? { website: toWebsite(row), created: row.createdAt.getTime() === now.getTime() } : null;
}

/** The customer's websites by hostname, a page at a time. */
export async function listWebsites(db: Db, userId: string, page: PageParams): Promise<Page<Website>> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(websites)
      .where(eq(websites.userId, userId))
      .orderBy(asc(websites.hostname))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(websites).where(eq(websites.userId, userId)),
  ]);
  return { rows: rows.map(toWebsite), total: total?.n ?? 0 };
}

/** The customer's number of websites (capped per customer: routes/websites.ts). */
export async function countWebsites(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(websites).where(eq(websites.userId, userId));
  return row?.n ?? 0;
}

/** The website at `hostname`, whoever holds it. */
export async function websiteAt(db: Db, hostname: string): Promise<WebsiteRow | undefined> {
  const [row] = await db.select().from(websites).where(eq(websites.hostname, hostname));
  return row;
}

/** The customer's websites by hostname, a page at a time (for writing their delivery entries). */
export async function customerWebsites(db: Db, userId: string, page: PageParams): Promise<WebsiteRow[]> {
  return db
    .select()
    .from(websites)
    .where(eq(websites.userId, userId))
    .orderBy(asc(websites.hostname))
    .limit(page.limit)
    .offset(page.offset);
}
