/**
 * @module Deleted mappings, kept 30 days so that a customer can restore one (docs/history.md): the copy is written
 * in the same transaction as the delete (models/mappings.ts `deleteKeepingCopy`), a restore puts it back with its
 * own id, and the daily cron removes older copies in bounded chunks.
 */
import { and, count, desc, eq, gt, lte, sql } from "drizzle-orm";
import { HTML_PREVIEW_CHARS } from "#contract/input-caps";
import type { DeletedMapping } from "#contract/responses";
import type { MatchKind } from "#contract/url-rules";
import type { Db } from "../db/client";
import { deletedMappings, urlMappings, users } from "../db/schema";
import type { Page, PageParams } from "#contract/page";
import { pageOf } from "./page";
import { contentColumnBytes, rowBytes } from "./content-budget";

/** How long a deleted mapping can be restored. */
export const DELETED_KEPT_DAYS = 30;
const KEPT_MS = DELETED_KEPT_DAYS * 86_400_000;

const restorable = (userId: string, now: Date) =>
  and(eq(deletedMappings.userId, userId), gt(deletedMappings.deletedAt, new Date(now.getTime() - KEPT_MS)));

/** The customer's mappings deleted within the last 30 days, most recently deleted first, the HTML as a preview. */
export async function listDeletedMappings(
  db: Db,
  userId: string,
  page: PageParams,
  now = new Date(),
): Promise<Page<DeletedMapping>> {
  const where = restorable(userId, now);
  return pageOf(
    db,
    db
      .select({
        id: deletedMappings.id,
        url: deletedMappings.url,
        htmlContent: sql<string>`substr(${deletedMappings.htmlContent}, 1, ${HTML_PREVIEW_CHARS})`,
        htmlContentLength: sql<number>`length(${deletedMappings.htmlContent})`,
        match: sql<MatchKind>`case when ${deletedMappings.normalizedUrl} like '%/*' then 'prefix' else 'exact' end`,
        publishedAt: deletedMappings.publishedAt,
        createdAt: deletedMappings.createdAt,
        deletedAt: deletedMappings.deletedAt,
      })
      .from(deletedMappings)
      .where(where)
      .orderBy(desc(deletedMappings.deletedAt), desc(deletedMappings.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(deletedMappings).where(where),
    (r) => ({
      ...r,
      publishedAt: r.publishedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      deletedAt: r.deletedAt.toISOString(),
      restorableUntil: new Date(r.deletedAt.getTime() + KEPT_MS).toISOString(),
    }),
  );
}

/**
 * A deleted mapping of the customer's that can still be restored: where it was, its bytes, and whether it comes
 * back for an audience and published or scheduled (what the URL's bound on audience mappings counts), or null.
 */
export async function getDeletedMapping(db: Db, userId: string, id: number, now = new Date()) {
  const at = now.getTime();
  const [row] = await db
    .select({
      normalizedUrl: deletedMappings.normalizedUrl,
      columns: contentColumnBytes(deletedMappings),
      liveAudience: sql<number>`${deletedMappings.audience} is not null and (
        (${deletedMappings.publishedAt} is not null and coalesce(${deletedMappings.unpublishAt} > ${at}, 1))
        or ${deletedMappings.publishAt} > ${at})`.mapWith(Boolean),
    })
    .from(deletedMappings)
    .where(and(restorable(userId, now), eq(deletedMappings.id, id)));
  // What restoring it adds to the account's content (models/content-budget.ts).
  return row
    ? { normalizedUrl: row.normalizedUrl, bytes: rowBytes(row.columns), liveAudience: row.liveAudience }
    : null;
}

/**
 * Puts a deleted mapping back, with its id, creation time, content and state, in one transaction; answers whether
 * it did. A schedule whose time passed meanwhile is not carried out late: a passed publish time is dropped (the
 * mapping stays a draft), a passed unpublish time leaves it unpublished.
 */
export async function restoreDeletedMapping(db: Db, userId: string, id: number, now = new Date()): Promise<boolean> {
  const mine = and(restorable(userId, now), eq(deletedMappings.id, id));
  const at = now.getTime();
  // Raw SQL: url_mappings has generated columns, which a typed insert-select cannot leave out. Its columns in the
  // order Drizzle inserts them: every stored column, as db/schema/mappings.ts declares them. A restored mapping comes back
  // without its preview key, so that links made before the deletion stay dead; its experiment's id and goals are
  // copied by their trigger (db/raw.ts).
  const [restored] = await db.batch([
    db
      .insert(urlMappings)
      .select(
        sql`select id, url, normalized_url, html_content, placement, seo,
          case when unpublish_at <= ${at} then null else published_at end,
          case when publish_at > ${at} then publish_at end,
          case when unpublish_at > ${at} then unpublish_at end,
          'customer', experiment, audience, priority, holdout, user_id, created_at,
          null, null, null
        from ${deletedMappings} where ${mine}`,
      )
      .onConflictDoNothing()
      .returning({ id: urlMappings.id }),
    db.delete(deletedMappings).where(mine),
  ]);
  return restored.length > 0;
}

const PURGE_CHUNK = 1_000;
const PURGE_CHUNKS_PER_RUN = 20;

/**
 * Removes the copies deleted more than 30 days ago (though not one created in its customer's current billing period,
 * which still counts among the period's events: models/usage.ts), 1,000 per statement and at most 20,000 a run (the daily cron):
 * a customer who deleted more in one day loses them over the following days, never all in one invocation.
 */
export async function purgeDeletedMappings(db: Db, now: Date): Promise<number> {
  let removed = 0;
  for (let chunk = 0; chunk < PURGE_CHUNKS_PER_RUN; chunk++) {
    const old = await db
      .delete(deletedMappings)
      .where(
        sql`${deletedMappings.id} in (select id from ${deletedMappings}
          where ${lte(deletedMappings.deletedAt, new Date(now.getTime() - KEPT_MS))}
            and not coalesce(${deletedMappings.createdAt} >= (select ${users.billingPeriodStart} from ${users}
              where ${users.id} = ${deletedMappings.userId}), 0)
          limit ${PURGE_CHUNK})`,
      )
      .returning({ id: deletedMappings.id });
    removed += old.length;
    if (old.length < PURGE_CHUNK) break;
  }
  return removed;
}
