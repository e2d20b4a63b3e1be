/**
 * @module The SQL of a bulk import (docs/bulk.md): the customer's mappings the rows name, and the import applied in
 * one transaction. Rows travel as JSON parameters of at most 1 MB each (`chunksByJsonSize`), so that no statement binds
 * more than D1's 100 parameters or a value over its 2 MB, whatever the number of rows.
 */
import { and, eq, sql } from "drizzle-orm";
import { DEFAULT_PRIORITY, type Audience } from "#contract/audiences";
import type { Placement } from "#contract/placement";
import type { Publication } from "#contract/publication";
import type { Seo } from "#contract/seo";
import type { Db } from "../db/client";
import { chunksByJsonSize, inList } from "../db/expressions";
import { urlMappings } from "../db/schema";
import { contentColumnBytes, type ContentColumnBytes } from "./content-budget";

/**
 * A mapping a row may change: where it is, how it is published and its bytes (never its HTML, which may be 256 KB).
 */
export interface ImportTarget extends Publication {
  id: number;
  normalizedUrl: string;
  /** What it stores now (models/content-budget.ts). */
  content: ContentColumnBytes;
  /** Its audience's name; null for a mapping without an audience. */
  audienceName: string | null;
}

const audienceName = sql<string | null>`${urlMappings.audience} ->> '$.name'`;

const targetColumns = {
  id: urlMappings.id,
  content: contentColumnBytes(urlMappings),
  audienceName,
  normalizedUrl: urlMappings.normalizedUrl,
  publishedAt: urlMappings.publishedAt,
  publishAt: urlMappings.publishAt,
  unpublishAt: urlMappings.unpublishAt,
};

/** The customer's mappings with these ids. */
export async function mappingsWithIds(db: Db, userId: string, ids: number[]): Promise<Map<number, ImportTarget>> {
  const found = new Map<number, ImportTarget>();
  for (const chunk of chunksByJsonSize(ids)) {
    const rows = await db
      .select(targetColumns)
      .from(urlMappings)
      .where(and(eq(urlMappings.userId, userId), inList(urlMappings.id, chunk)));
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

/** Where a row without an id lands: its normalised URL and its audience's name (null: none). */
export const placeKey = (normalizedUrl: string, audience: string | null) => JSON.stringify([normalizedUrl, audience]);

/** The newest of the mappings at its URL for the same audience (by name), or without one. */
const newestForItsAudience = sql`not exists (select 1 from ${urlMappings} newer
    where newer.user_id = ${urlMappings.userId} and newer.normalized_url = ${urlMappings.normalizedUrl}
      and (newer.audience ->> '$.name') is (${audienceName})
      and (newer.created_at, newer.id) > (${urlMappings.createdAt}, ${urlMappings.id}))`;

/**
 * Per normalised URL and audience name (`placeKey`), the customer's newest mapping there: without audiences, the
 * newest at the URL (the one the dashboard shows).
 */
export async function newestMappingsAt(db: Db, userId: string, normalizedUrls: string[]) {
  const found = new Map<string, ImportTarget>();
  for (const chunk of chunksByJsonSize(normalizedUrls)) {
    const rows = await db
      .select(targetColumns)
      .from(urlMappings)
      .where(and(eq(urlMappings.userId, userId), inList(urlMappings.normalizedUrl, chunk), newestForItsAudience));
    for (const row of rows) found.set(placeKey(row.normalizedUrl, row.audienceName), row);
  }
  return found;
}

/** A mapping as an import writes it. `placement` and `seo` absent: an update keeps them; null: the defaults. */
export interface ImportedMapping {
  url: string;
  normalizedUrl: string;
  htmlContent: string;
  placement?: Placement | null;
  seo?: Seo | null;
  /** Absent: an update keeps it, an add has none; null: none. */
  audience?: Audience | null;
  priority?: number;
  publication: Publication;
}

const asJson = (m: ImportedMapping, id?: number) => ({
  ...(id === undefined ? {} : { id }),
  url: m.url,
  normalizedUrl: m.normalizedUrl,
  htmlContent: m.htmlContent,
  ...(m.placement === undefined ? {} : { placement: m.placement }),
  ...(m.seo === undefined ? {} : { seo: m.seo }),
  ...(m.audience === undefined ? {} : { audience: m.audience }),
  ...(m.priority === undefined ? {} : { priority: m.priority }),
  publishedAt: m.publication.publishedAt?.getTime() ?? null,
  publishAt: m.publication.publishAt?.getTime() ?? null,
  unpublishAt: m.publication.unpublishAt?.getTime() ?? null,
});

/** A JSON object's member as a stored JSON column: absent keeps `current`, null (or any non-object) is null. */
const jsonColumn = (member: string, current: string) =>
  `case json_type(row.value, '$.${member}') when 'object' then json(row.value -> '$.${member}')
    when 'null' then null else ${current} end`;

const INSERT = `insert into url_mappings (user_id, url, normalized_url, html_content, placement, seo, audience,
    priority, published_at, publish_at, unpublish_at, changed_by, created_at)
  select ?1, row.value ->> 'url', row.value ->> 'normalizedUrl', row.value ->> 'htmlContent',
    ${jsonColumn("placement", "null")}, ${jsonColumn("seo", "null")}, ${jsonColumn("audience", "null")},
    coalesce(row.value ->> 'priority', ${DEFAULT_PRIORITY}), row.value ->> 'publishedAt',
    row.value ->> 'publishAt', row.value ->> 'unpublishAt', 'customer', ?3
  from json_each(?2) row where true
  returning id, normalized_url as normalizedUrl, audience ->> '$.name' as audienceName`;

const UPDATE = `update url_mappings set url = row.value ->> 'url', normalized_url = row.value ->> 'normalizedUrl',
    html_content = row.value ->> 'htmlContent',
    placement = ${jsonColumn("placement", "url_mappings.placement")}, seo = ${jsonColumn("seo", "url_mappings.seo")},
    audience = ${jsonColumn("audience", "url_mappings.audience")},
    priority = coalesce(row.value ->> 'priority', url_mappings.priority),
    published_at = row.value ->> 'publishedAt', publish_at = row.value ->> 'publishAt',
    unpublish_at = row.value ->> 'unpublishAt', changed_by = 'customer'
  from json_each(?2) row
  where url_mappings.id = row.value ->> 'id' and url_mappings.user_id = ?1`;

/**
 * Adds and updates the customer's mappings in one transaction (D1 `batch`): all of them or, if any statement
 * fails, none. Answers the ids of the added mappings by `placeKey` (an import adds at most one per URL and audience).
 */
export async function applyImport(
  db: Db,
  userId: string,
  adds: readonly ImportedMapping[],
  updates: readonly { id: number; mapping: ImportedMapping }[],
  now: Date,
): Promise<Map<string, number>> {
  const d1 = db.$client;
  const inserts = chunksByJsonSize(adds.map((m) => asJson(m))).map((chunk) =>
    d1.prepare(INSERT).bind(userId, JSON.stringify(chunk), now.getTime()),
  );
  const changes = chunksByJsonSize(updates.map((u) => asJson(u.mapping, u.id))).map((chunk) =>
    d1.prepare(UPDATE).bind(userId, JSON.stringify(chunk)),
  );
  if (inserts.length + changes.length === 0) return new Map();
  const results = await d1.batch<{ id: number; normalizedUrl: string; audienceName: string | null }>([
    ...inserts,
    ...changes,
  ]);
  const added = new Map<string, number>();
  for (const result of results.slice(0, inserts.length)) {
    for (const row of result.results) added.set(placeKey(row.normalizedUrl, row.audienceName), row.id);
  }
  return added;
}
