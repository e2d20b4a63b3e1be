/**
 * @module Selector health (docs/placement.md): per mapping and day, its delivered views and the views whose selector
 * named no element; the mapping's last 7 days summed, and the days before purged in chunks.
 */
import { and, eq, gte, sql, sum, max } from "drizzle-orm";
import type { Page } from "#contract/page";
import type { PlacementHealth } from "#contract/placement";
import type { Db } from "../db/client";
import { placementHealth } from "../db/schema";
import { utcDay } from "../lib/days";

/** The days a mapping's health covers, today included; older rows are purged. */
export const PLACEMENT_HEALTH_DAYS = 7;
const DAY_MS = 86_400_000;
const PURGE_CHUNK = 1_000;
const PURGE_CHUNKS_PER_RUN = 10;

/** The first day still covered on `now`'s day. */
const firstDay = (now: number) => utcDay(now - (PLACEMENT_HEALTH_DAYS - 1) * DAY_MS);

/**
 * Adds misses, summed per mapping and day in one statement; a miss of a mapping that is not (or no longer) the
 * customer's is dropped. Misses carry no id: a redelivered batch may count its misses twice (a warning, not a bill).
 */
export async function recordPlacementMisses(
  db: Db,
  misses: readonly { userId: string; mappingId: number; timestamp: number }[],
): Promise<void> {
  if (misses.length === 0) return;
  const rows = JSON.stringify(
    misses.map((m) => ({ u: m.userId, m: m.mappingId, d: utcDay(m.timestamp), t: m.timestamp })),
  );
  await db.run(sql`insert into ${placementHealth} (mapping_id, day, misses, last_miss_at)
    select e.value ->> 'm', e.value ->> 'd', count(*), max(e.value ->> 't')
    from json_each(${rows}) e join url_mappings m on m.id = e.value ->> 'm' and m.user_id = e.value ->> 'u'
    group by e.value ->> 'm', e.value ->> 'd'
    on conflict (mapping_id, day) do update set misses = misses + excluded.misses,
      last_miss_at = max(coalesce(last_miss_at, 0), excluded.last_miss_at)`);
}

/** A mapping's last `PLACEMENT_HEALTH_DAYS` days: at most 7 rows, by its key. */
export async function placementHealthOf(db: Db, mappingId: number, now = Date.now()): Promise<PlacementHealth> {
  const [row] = await db
    .select({
      views: sum(placementHealth.views),
      misses: sum(placementHealth.misses),
      lastMissAt: max(placementHealth.lastMissAt),
    })
    .from(placementHealth)
    .where(and(eq(placementHealth.mappingId, mappingId), gte(placementHealth.day, firstDay(now))));
  return {
    views: Number(row?.views ?? 0),
    misses: Number(row?.misses ?? 0),
    lastMissAt: row?.lastMissAt ? row.lastMissAt.getTime() : null,
  };
}

/**
 * The misses of the last `PLACEMENT_HEALTH_DAYS` days of `mappingIds` (a list's page), those with misses only: one
 * query (the ids as one JSON parameter, whatever the page's size), at most 7 rows per id by the key.
 */
export async function placementMissesOf(
  db: Db,
  mappingIds: readonly number[],
  now = Date.now(),
): Promise<Map<number, number>> {
  if (mappingIds.length === 0) return new Map();
  const rows = await db.all<{ mappingId: number; misses: number }>(sql`select h.mapping_id as mappingId,
      sum(h.misses) as misses
    from json_each(${JSON.stringify(mappingIds)}) ids join ${placementHealth} h
      on h.mapping_id = ids.value and h.day >= ${firstDay(now)}
    group by h.mapping_id having sum(h.misses) > 0`);
  return new Map(rows.map((r) => [r.mappingId, r.misses]));
}

/** The page's rows, those whose selector missed with `placementMisses`. */
export async function withPlacementMisses<T extends { id: number }>(
  db: Db,
  page: Page<T>,
): Promise<Page<T & { placementMisses?: number }>> {
  const misses = await placementMissesOf(
    db,
    page.rows.map((r) => r.id),
  );
  if (misses.size === 0) return page;
  return { ...page, rows: page.rows.map((r) => (misses.has(r.id) ? { ...r, placementMisses: misses.get(r.id) } : r)) };
}

/** Deletes the days before the covered ones, a chunk at a time; answers the rows deleted. */
export async function purgePlacementHealth(db: Db, now: Date): Promise<number> {
  const before = firstDay(now.getTime());
  let deleted = 0;
  for (let i = 0; i < PURGE_CHUNKS_PER_RUN; i++) {
    const result = await db.run(sql`delete from ${placementHealth} where (mapping_id, day) in (
      select mapping_id, day from ${placementHealth} where ${placementHealth.day} < ${before} limit ${PURGE_CHUNK})`);
    deleted += result.meta.changes;
    if (result.meta.changes < PURGE_CHUNK) break;
  }
  return deleted;
}
