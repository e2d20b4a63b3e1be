/**
 * @module Delivery store entries waiting to be written again from D1 (worker/delivery/repairs.ts): one row per
 * customer and target, however often it was asked for.
 */
import { and, asc, between, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { chunksByJsonSize } from "../db/expressions";
import { deliveryRepairs } from "../db/schema";

/**
 * What a repair rewrites: the customer's state, their content version and state (after URL entries were written),
 * one URL's entry, one edge website's entries, or (deleted customers) all their entries.
 */
export type RepairTarget = "state" | "version" | "purge" | `url:${string}` | `host:${string}`;

export interface Repair {
  userId: string;
  target: RepairTarget;
  requestedAt: Date;
}

/** Most ids per statement: the list travels as one JSON parameter, far below D1's 2 MB per value. */
const IDS_PER_STATEMENT = 5_000;

/** Asks for `target` of every customer in `userIds`; asking again moves `requestedAt` on. */
export async function requestRepairs(db: Db, userIds: string[], target: RepairTarget, now = new Date()) {
  for (let i = 0; i < userIds.length; i += IDS_PER_STATEMENT) {
    const ids = JSON.stringify(userIds.slice(i, i + IDS_PER_STATEMENT));
    await db.run(sql`insert into ${deliveryRepairs} (user_id, target, requested_at)
      select value, ${target}, ${now.getTime()} from json_each(${ids}) where true
      on conflict (user_id, target) do update set requested_at = excluded.requested_at`);
  }
}

/** Asks for the URL entries `normalizedUrls` of one customer (a bulk change); asking again moves `requestedAt` on. */
export async function requestUrlRepairs(db: Db, userId: string, normalizedUrls: string[], now = new Date()) {
  for (const chunk of chunksByJsonSize(normalizedUrls.map((url) => `url:${url}`))) {
    await db.run(sql`insert into ${deliveryRepairs} (user_id, target, requested_at)
      select ${userId}, value, ${now.getTime()} from json_each(${JSON.stringify(chunk)}) where true
      on conflict (user_id, target) do update set requested_at = excluded.requested_at`);
  }
}

/** One customer's repairs with targets from `first` to `last` (a range of the primary key), at most `limit`. */
export async function pendingRepairsBetween(
  db: Db,
  userId: string,
  first: RepairTarget,
  last: RepairTarget,
  limit: number,
): Promise<Repair[]> {
  const rows = await db
    .select()
    .from(deliveryRepairs)
    .where(and(eq(deliveryRepairs.userId, userId), between(deliveryRepairs.target, first, last)))
    .orderBy(asc(deliveryRepairs.target))
    .limit(limit);
  return rows as Repair[];
}

/** The oldest repairs, at most `limit`. */
export async function pendingRepairs(db: Db, limit: number): Promise<Repair[]> {
  const rows = await db.select().from(deliveryRepairs).orderBy(asc(deliveryRepairs.requestedAt)).limit(limit);
  return rows as Repair[];
}

/** Removes a repair that was carried out, unless it was asked for again meanwhile. */
export async function completeRepair(db: Db, repair: Repair): Promise<void> {
  await db
    .delete(deliveryRepairs)
    .where(
      and(
        eq(deliveryRepairs.userId, repair.userId),
        eq(deliveryRepairs.target, repair.target),
        eq(deliveryRepairs.requestedAt, repair.requestedAt),
      ),
    );
}
