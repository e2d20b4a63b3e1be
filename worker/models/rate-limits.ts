/**
 * @module Sliding-window rate limits kept in D1: one row per counted action, by bucket. Taking a limit is one
 * conditional INSERT, so parallel requests cannot slip past it between a count and a write.
 */
import { and, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimitEvents } from "../db/schema";

export interface RateLimit {
  bucket: string;
  max: number;
  windowMs: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * When every bucket still has room, counts the action in each and allows it; otherwise counts nothing and says
 * how long until the fullest bucket has room again.
 */
export async function takeRateLimits(db: Db, limits: RateLimit[], now = Date.now()): Promise<RateDecision> {
  if (limits.length === 0) return { allowed: true };
  const windows = JSON.stringify(limits.map((l) => ({ bucket: l.bucket, max: l.max, since: now - l.windowMs })));
  const buckets = JSON.stringify(limits.map((l) => l.bucket));
  const inserted = await db.run(sql`
    INSERT INTO ${rateLimitEvents} (bucket, created_at)
    SELECT b.value, ${now} FROM json_each(${buckets}) AS b
    WHERE NOT EXISTS (
      SELECT 1 FROM json_each(${windows}) AS w
      WHERE (SELECT count(*) FROM ${rateLimitEvents} AS e
             WHERE e.bucket = json_extract(w.value, '$.bucket') AND e.created_at >= json_extract(w.value, '$.since'))
            >= json_extract(w.value, '$.max'))`);
  if (inserted.meta.changes > 0) return { allowed: true };
  const waits = await Promise.all(limits.map((l) => checkRateLimit(db, l, now)));
  return { allowed: false, retryAfterMs: Math.max(...waits.map((w) => (w.allowed ? 0 : w.retryAfterMs))) };
}

/** Whether the bucket has room, counting nothing; when full, how long until the oldest counted action ages out. */
export async function checkRateLimit(db: Db, limit: RateLimit, now = Date.now()): Promise<RateDecision> {
  // The max-th newest action in the window: once it leaves the window, the bucket has room again.
  const [blocking] = await db
    .select({ createdAt: rateLimitEvents.createdAt })
    .from(rateLimitEvents)
    .where(
      and(eq(rateLimitEvents.bucket, limit.bucket), gte(rateLimitEvents.createdAt, new Date(now - limit.windowMs))),
    )
    .orderBy(desc(rateLimitEvents.createdAt))
    .limit(1)
    .offset(limit.max - 1);
  if (!blocking) return { allowed: true };
  return { allowed: false, retryAfterMs: blocking.createdAt.getTime() + limit.windowMs - now };
}

/** Counts one action in the bucket, whatever its state (for failures that count towards a lock). */
export async function recordRateEvent(db: Db, bucket: string, now = Date.now()): Promise<void> {
  await db.insert(rateLimitEvents).values({ bucket, createdAt: new Date(now) });
}

/** How many actions the bucket counted since `since`. */
export async function countRateEvents(db: Db, bucket: string, since: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(rateLimitEvents)
    .where(and(eq(rateLimitEvents.bucket, bucket), gte(rateLimitEvents.createdAt, new Date(since))));
  return row?.n ?? 0;
}

/** Takes back the action counted at `at` in each bucket (one row each). */
export async function removeRateEvents(db: Db, buckets: string[], at: number): Promise<void> {
  if (buckets.length === 0) return;
  await db.run(sql`
    DELETE FROM ${rateLimitEvents} WHERE id IN (
      SELECT (SELECT e.id FROM ${rateLimitEvents} AS e WHERE e.bucket = b.value AND e.created_at = ${at} LIMIT 1)
      FROM json_each(${JSON.stringify(buckets)}) AS b)`);
}

export async function clearRateLimit(db: Db, bucket: string): Promise<void> {
  await db.delete(rateLimitEvents).where(eq(rateLimitEvents.bucket, bucket));
}

export async function purgeRateLimitEvents(db: Db, olderThan: Date) {
  await db.delete(rateLimitEvents).where(lt(rateLimitEvents.createdAt, olderThan));
}
