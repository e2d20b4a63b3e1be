/**
 * @module The change feed: which delivery store entries changed lately, as each isolate follows it. A location keeps
 * what it read from KV (a customer's state, an edge website's entry) for a short time by itself (30 and 60 seconds:
 * a change must show everywhere within `PROPAGATION_MS`). Most customers are seen at a location less often than
 * that, so most page views read KV again although nothing changed. The writers record every write of those entries
 * in D1 (`delivery_changes`, after the write to KV landed); each isolate reads the rows after the last it has every
 * ten seconds, in the background, and a kept entry stays usable for up to an hour while the feed, read within the
 * last 30 seconds, has no change of its key since KV could still have answered an older value.
 *
 * The first isolate of a location to read the feed in a ten-second window keeps its page in the location's cache,
 * so the others of that location read D1 only when they have fallen behind it. When the feed cannot be read (D1
 * down, the isolate new or idle), nothing is kept longer than before. What a stale feed costs: the short times.
 */
import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import type { AppEnv, Env } from "../env";
import { purgeDeliveryChanges, recordDeliveryChange } from "../models/delivery-changes";
import { ChangeFeedFollower, KEPT_UNCHANGED_MS, KV_PROPAGATION_MS } from "./change-feed-follower";

/** Rows the minute cron deletes at most (a bulk change of many customers leaves at most a few minutes' worth). */
const PURGE_ROWS_PER_MINUTE = 10_000;

/** This isolate's follower of the feed. */
export const changeFeed = new ChangeFeedFollower();

/**
 * Whether an entry read from KV at `readAt` may still be used at `now`: within its short time `shortMs`, or while
 * the feed knows it unchanged since KV could have answered an older value.
 */
export function stillCurrent(key: string, readAt: number, now: number, shortMs: number): boolean {
  if (now < readAt + shortMs) return true;
  return now < readAt + KEPT_UNCHANGED_MS && changeFeed.unchangedSince(key, readAt - KV_PROPAGATION_MS, now);
}

/**
 * Records that the entry at `key` was written (after the write to KV landed). A failure is thrown at the writer,
 * whose write is then repaired (sync.ts): an unrecorded change could stay unseen for as long as entries are kept.
 */
export async function recordChange(env: Env, key: string, now = Date.now()): Promise<void> {
  await recordDeliveryChange(createDb(env.DB), key, Math.max(now, Date.now()));
}

/** On the delivery routes: reads the feed after the answer when a read is due. */
export const followDeliveryChanges = createMiddleware<AppEnv>(async (c, next) => {
  followChanges(c.env, c.executionCtx);
  await next();
});

/** Reads the feed after the answer (`waitUntil`) when a read is due. */
export function followChanges(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, now = Date.now()): void {
  const reading = changeFeed.refreshIfDue(env, now);
  if (reading) ctx.waitUntil(reading);
}

/** The minute cron: rows older than any follower asks for go (followers idle longer start afresh). */
export async function purgeChangeFeed(env: Env, now: Date): Promise<number> {
  return purgeDeliveryChanges(createDb(env.DB), now.getTime() - 2 * KEPT_UNCHANGED_MS, PURGE_ROWS_PER_MINUTE);
}
