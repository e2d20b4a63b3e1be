/**
 * @module The shard count the reducers' held sums are routed by (`reducer_layout`, one row): analytics/reducer-layout.ts
 * compares it with `ANALYTICS_REDUCER_SHARDS` each minute.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { reducerLayout } from "../db/schema";

const ROW = 1;

/** The shard count recorded, or null before one was. */
export async function recordedShards(db: Db): Promise<number | null> {
  const [row] = await db.select({ shards: reducerLayout.shards }).from(reducerLayout).where(eq(reducerLayout.id, ROW));
  return row?.shards ?? null;
}

export async function recordShards(db: Db, shards: number): Promise<void> {
  await db
    .insert(reducerLayout)
    .values({ id: ROW, shards })
    .onConflictDoUpdate({ target: reducerLayout.id, set: { shards } });
}
