/**
 * @module What delivery reads of the mappings: the one a URL delivers (the newest published), a rebuild's pages,
 * which are still delivered, and the URL tester's answers. delivery/sync.ts, rebuild.ts and the URL tester use it.
 */
import { and, asc, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import { AUDIENCE_MAPPINGS_PER_URL_MAX, type Audience, type StoredHoldout } from "#contract/audiences";
import type { Placement } from "#contract/placement";
import type { Seo } from "#contract/seo";
import type { StoredExperiment } from "#contract/experiments";
import type { Db } from "../db/client";
import { inList } from "../db/expressions";
import { mappingStats, urlMappings } from "../db/schema";
import { mappingColumns, newestFirst, toMapping } from "./mappings";

const published = isNotNull(urlMappings.publishedAt);

/** What a delivery entry holds of a mapping (delivery/store.ts). */
const deliveredColumns = {
  id: urlMappings.id,
  htmlContent: urlMappings.htmlContent,
  placement: urlMappings.placement,
  seo: urlMappings.seo,
  experiment: urlMappings.experiment,
  holdout: urlMappings.holdout,
};

export type DeliverableMapping = {
  id: number;
  htmlContent: string;
  placement: Placement | null;
  seo: Seo | null;
  experiment?: StoredExperiment | null;
  holdout?: StoredHoldout | null;
};

/** A mapping for an audience as its URL's delivery entry holds it (docs/audiences.md). */
export type AudienceDeliverable = DeliverableMapping & { audience: Audience };

/** A URL's fallback candidates: published, without an audience (the newest of them is delivered). */
const fallbacksOf = (userId: string, normalizedUrl: string) =>
  and(
    eq(urlMappings.userId, userId),
    eq(urlMappings.normalizedUrl, normalizedUrl),
    published,
    isNull(urlMappings.audience),
  );

/** The statement of `deliveredMapping`, for a batch. */
const fallbackAt = (db: Db, userId: string, normalizedUrl: string) =>
  db
    .select(deliveredColumns)
    .from(urlMappings)
    .where(fallbacksOf(userId, normalizedUrl))
    .orderBy(...newestFirst)
    .limit(1);

/**
 * The mapping delivered at one of the customer's URLs to everyone no audience mapping takes (docs/audiences.md):
 * the newest published one without an audience (several may share a normalised URL). One probe of
 * `url_mappings_delivery_idx`, whatever the number of the customer's mappings.
 */
export async function deliveredMapping(db: Db, userId: string, normalizedUrl: string) {
  const [row] = await fallbackAt(db, userId, normalizedUrl);
  return row;
}

/**
 * A URL's published mappings for an audience: a range of `url_mappings_audience_idx`, whose condition is repeated
 * so that SQLite uses it.
 */
const audienceMappingsOf = (userId: string, normalizedUrl: string) =>
  and(
    eq(urlMappings.userId, userId),
    eq(urlMappings.normalizedUrl, normalizedUrl),
    isNotNull(urlMappings.audience),
    or(published, isNotNull(urlMappings.publishAt)),
    published,
  );

/** The order a URL's audience mappings are tried in: priority, then oldest. */
const audienceOrder = [asc(urlMappings.priority), asc(urlMappings.id)];

/** A URL's published mappings for an audience in the order they are tried, at most AUDIENCE_MAPPINGS_PER_URL_MAX. */
const audienceMappingsQuery = (db: Db, userId: string, normalizedUrl: string) =>
  db
    .select({ ...deliveredColumns, audience: urlMappings.audience })
    .from(urlMappings)
    .where(audienceMappingsOf(userId, normalizedUrl))
    .orderBy(...audienceOrder)
    .limit(AUDIENCE_MAPPINGS_PER_URL_MAX);

/** What one URL delivers: its audience mappings in order, and its fallback. */
export interface DeliverableUrl {
  audiences: AudienceDeliverable[];
  fallback: DeliverableMapping | undefined;
}

/** What one of the customer's URLs delivers: both reads in one batch, so one round trip and one snapshot. */
export async function deliverableAt(db: Db, userId: string, normalizedUrl: string): Promise<DeliverableUrl> {
  const [audiences, [fallback]] = await db.batch([
    audienceMappingsQuery(db, userId, normalizedUrl),
    fallbackAt(db, userId, normalizedUrl),
  ]);
  return { audiences: audiences as AudienceDeliverable[], fallback };
}

/** A URL's fallback: published, without an audience, and no newer one like it. */
const newestFallback = and(
  isNull(urlMappings.audience),
  sql`not exists (select 1 from ${urlMappings} newer
    where newer.user_id = ${urlMappings.userId} and newer.normalized_url = ${urlMappings.normalizedUrl}
      and newer.published_at is not null and newer.audience is null
      and (newer.created_at, newer.id) > (${urlMappings.createdAt}, ${urlMappings.id}))`,
);

/**
 * One page of the customer's normalised URLs that deliver something (a published mapping, for everyone or for an
 * audience: a URL whose mappings all have audiences too), after `afterUrl` (a rebuild's pages).
 */
export async function deliveringUrlsPage(db: Db, userId: string, afterUrl: string, limit: number) {
  const rows = await db
    .selectDistinct({ normalizedUrl: urlMappings.normalizedUrl })
    .from(urlMappings)
    .where(and(eq(urlMappings.userId, userId), published, gt(urlMappings.normalizedUrl, afterUrl)))
    .orderBy(asc(urlMappings.normalizedUrl))
    .limit(limit);
  return rows.map((r) => r.normalizedUrl);
}

/**
 * Which of these mapping ids are still delivered at their URL for the customer, with that URL: as its fallback, or
 * as one of its published audience mappings (the id an entry names when its URL has no fallback).
 */
export async function stillDeliveredMappings(db: Db, userId: string, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: urlMappings.id, normalizedUrl: urlMappings.normalizedUrl })
    .from(urlMappings)
    .where(
      and(
        eq(urlMappings.userId, userId),
        inList(urlMappings.id, ids),
        published,
        or(newestFallback, isNotNull(urlMappings.audience)),
      ),
    );
}

/**
 * For the URL tester: which of these normalised URLs (at most a URL and its prefixes) have a published mapping,
 * and so a delivery entry; one probe of `url_mappings_delivery_idx` per URL.
 */
export async function publishedUrlsAmong(db: Db, userId: string, normalizedUrls: string[]) {
  if (normalizedUrls.length === 0) return [];
  const rows = await db
    .selectDistinct({ normalizedUrl: urlMappings.normalizedUrl })
    .from(urlMappings)
    .where(and(eq(urlMappings.userId, userId), inList(urlMappings.normalizedUrl, normalizedUrls), published));
  return rows.map((row) => row.normalizedUrl);
}

/**
 * For the URL tester: what one URL delivers, as the API answers mappings, in the order delivery tries them (the
 * same conditions and order as `deliverableAt`): its audience mappings, then its fallback.
 */
export async function deliveredInOrderAt(db: Db, userId: string, normalizedUrl: string) {
  const rows = () =>
    db.select(mappingColumns).from(urlMappings).leftJoin(mappingStats, eq(mappingStats.mappingId, urlMappings.id));
  const [audiences, fallback] = await db.batch([
    rows()
      .where(audienceMappingsOf(userId, normalizedUrl))
      .orderBy(...audienceOrder)
      .limit(AUDIENCE_MAPPINGS_PER_URL_MAX),
    rows()
      .where(fallbacksOf(userId, normalizedUrl))
      .orderBy(...newestFirst)
      .limit(1),
  ]);
  return [...audiences, ...fallback].map((row) => ({ audience: row.audience, mapping: toMapping(row) }));
}

/** For the URL tester: the newest unpublished mapping at one of these normalised URLs, if any. */
export async function unpublishedMappingAt(db: Db, userId: string, normalizedUrls: string[]) {
  if (normalizedUrls.length === 0) return undefined;
  const [row] = await db
    .select({ url: urlMappings.url })
    .from(urlMappings)
    .where(
      and(
        eq(urlMappings.userId, userId),
        inList(urlMappings.normalizedUrl, normalizedUrls),
        isNull(urlMappings.publishedAt),
      ),
    )
    .orderBy(...newestFirst)
    .limit(1);
  return row;
}
