/** @module Sliding-window rate limits kept in D1: one row per counted action, by bucket. */
import { and, count, eq, gte, lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimitEvents } from "../db/schema";

export interface RateLimit {
  bucket: string;
  max: number;
  windowMs: number;
}

/** True when every limit still has room; then the action is counted in each bucket. */
export async function takeRateLimits(db: Db, limits: RateLimit[], now = Date.now()): Promise<boolean> {
  const counts = await Promise.all(
    limits.map(async (l) => {
      const [row] = await db
        .select({ n: count() })
        .from(rateLimitEvents)
        .where(and(eq(rateLimitEvents.bucket, l.bucket), gte(rateLimitEvents.createdAt, new Date(now - l.windowMs))));
      return row?.n ?? 0;
    }),
  );
  if (limits.some((l, i) => counts[i]! >= l.max)) return false;
  await db.insert(rateLimitEvents).values(limits.map((l) => ({ bucket: l.bucket, createdAt: new Date(now) })));
  return true;
}

export async function purgeRateLimitEvents(db: Db, olderThan: Date) {
  await db.delete(rateLimitEvents).where(lt(rateLimitEvents.createdAt, olderThan));
}
