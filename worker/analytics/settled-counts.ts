/**
 * @module Routes that show counters put one of these after their permission check: what the reducers hold of the
 * customers shown (reducer.ts) is counted before the handler reads, so a screen trails page views by the minute cron
 * (and at most `SETTLED_FOR_MS` more), never by what a reducer holds. Only reads (GET) ask.
 *
 * A settle is a Durable Object request (about 5 ms for one customer and 15 ms for every shard in Miniflare,
 * docs/performance.md): the reads of one screen, which come together, share one, and a read within
 * `SETTLED_FOR_MS` of the last settle of the same customers in this isolate does not ask again.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { settleCounters } from "./reducer-shards";

/** How long a settle serves later reads in the same isolate: the delivery store's memo is as old (5 s). */
export const SETTLED_FOR_MS = 5_000;
/** Entries kept before the expired ones are dropped. */
const MEMO_MAX = 10_000;

const recent = new Map<string, { until: number; settled: Promise<void> }>();

function settleOnce(c: Context<AppEnv>, who: readonly string[] | "all"): Promise<void> {
  const key = who === "all" ? "*" : who.join(" ");
  const now = Date.now();
  const last = recent.get(key);
  if (last && now < last.until) return last.settled;
  if (recent.size >= MEMO_MAX) {
    for (const [k, entry] of recent) if (entry.until <= now) recent.delete(k);
    if (recent.size >= MEMO_MAX) recent.clear();
  }
  const settled = settleCounters(c.env, who);
  recent.set(key, { until: now + SETTLED_FOR_MS, settled });
  return settled;
}

const settledFor = (who: (c: Context<AppEnv>) => readonly string[] | "all") =>
  createMiddleware<AppEnv>(async (c, next) => {
    await settleShown(c, who(c));
    await next();
  });

/** The signed-in customer's counters (after `requireUser`). */
export const ownCountsSettled = settledFor((c) => [c.var.user.id]);

/** The counters of the customer in the path (`:userId`, an admin's routes). */
export const pathCustomerCountsSettled = settledFor((c) => [c.req.param("userId") ?? ""]);

/**
 * For a handler that learns whose counters it shows only as it reads (an admin's page of customers or mappings):
 * settles those customers (every customer, for "all") before it reads their counters, sharing the middlewares' memo.
 */
export function settleShown(c: Context<AppEnv>, who: readonly string[] | "all"): Promise<void> {
  if (c.req.method !== "GET" || who.length === 0) return Promise.resolve();
  return settleOnce(c, who === "all" ? who : [...new Set(who)].sort());
}
