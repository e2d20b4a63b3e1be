/**
 * @module The delivery store's changes (`delivery_changes`): what the writers record after each write to KV, and what
 * the locations read to follow them (delivery/change-feed.ts). D1 commits one write at a time, so ids grow in the
 * order rows became visible: a reader that has every row up to an id misses none before it.
 */
import { asc, desc, gt, inArray, lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { deliveryChanges } from "../db/schema";

export interface DeliveryChange {
  id: number;
  key: string;
  changedAt: number;
}

/** Records that the store entry at `key` was written, the write having landed by `at` (epoch ms). */
export async function recordDeliveryChange(db: Db, key: string, at: number): Promise<void> {
  await db.insert(deliveryChanges).values({ key, changedAt: at });
}

/** The changes after id `afterId`, oldest first, at most `limit`. */
export function deliveryChangesAfter(db: Db, afterId: number, limit: number): Promise<DeliveryChange[]> {
  return db
    .select({ id: deliveryChanges.id, key: deliveryChanges.key, changedAt: deliveryChanges.changedAt })
    .from(deliveryChanges)
    .where(gt(deliveryChanges.id, afterId))
    .orderBy(asc(deliveryChanges.id))
    .limit(limit);
}

/** The newest change's id (0 when there is none): a reader starting now follows from there. */
export async function lastDeliveryChangeId(db: Db): Promise<number> {
  const [last] = await db
    .select({ id: deliveryChanges.id })
    .from(deliveryChanges)
    .orderBy(desc(deliveryChanges.id))
    .limit(1);
  return last?.id ?? 0;
}

/** Deletes up to `limit` changes stamped before `before` (epoch ms); answers how many went. */
export async function purgeDeliveryChanges(db: Db, before: number, limit: number): Promise<number> {
  const old = db
    .select({ id: deliveryChanges.id })
    .from(deliveryChanges)
    .where(lt(deliveryChanges.changedAt, before))
    .orderBy(asc(deliveryChanges.changedAt))
    .limit(limit);
  const result = await db.delete(deliveryChanges).where(inArray(deliveryChanges.id, old));
  return result.meta.changes;
}
