/**
 * @module Pages of a customer's website that visitors have viewed, as the Analytics tab's `url_stats` rows know
 * them (normalised URLs: docs/url-rules.md): the pages under a prefix, for "Pick on page"'s check of a selector on
 * other pages (docs/placement.md).
 */
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { urlStats } from "../db/schema";

/** Rows read under a prefix, in URL order along the primary key, before the newest are taken. */
export const VIEWED_PAGES_SCANNED = 200;

/**
 * Up to `limit` of the customer's viewed pages below the normalised path `base` (a prefix rule without its `/*`),
 * most recently viewed first; `base` itself and its query variants are not below it. Reads at most
 * VIEWED_PAGES_SCANNED rows by the primary key's range (`base/` up to `base0`: "0" follows "/"), whatever the
 * website's size.
 */
export async function viewedPagesBelow(db: Db, userId: string, base: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ url: urlStats.url, lastAccessed: urlStats.lastAccessed })
    .from(urlStats)
    .where(and(eq(urlStats.userId, userId), gt(urlStats.url, `${base}/`), lt(urlStats.url, `${base}0`)))
    .orderBy(urlStats.url)
    .limit(VIEWED_PAGES_SCANNED);
  return rows
    .sort((a, b) => b.lastAccessed.getTime() - a.lastAccessed.getTime())
    .slice(0, limit)
    .map((row) => row.url);
}
