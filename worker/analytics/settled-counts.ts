/**
 * @module How a route sees the page views the reducers hold (reducer.ts), after its permission check, so that a screen
 * trails page views by the minute cron (and at most `SETTLED_FOR_MS` more), never by what a reducer holds:
 * - `heldFor`: what the reducer holds of the customer, settling nothing; the model adds it to the counters it reads
 *   (models/held-counts.ts). Counts per customer, day and mapping (totals, the account's series, billing, the
 *   mappings list) read this way, and the analytics list's rows per URL while the row of every held view was sure
 *   at handoff (its URL's existing row, or "other pages" past the day's new URLs).
 * - `pathCustomerCountsSettled`, `settleShown`: the reducers settle the customers shown first, a D1 write. For
 *   counts a held sum cannot be added to exactly: per URL when a held URL is new while its day had new URLs left
 *   (whether it gets a row of its own or counts in "other pages" depends on the customer's whole day), and across
 *   customers; and for screens not
 *   moved to `heldFor` yet (an admin's screens of one customer: docs/decisions.md, issue 43).
 * Only reads (GET) ask.
 *
 * Either is a Durable Object request (a settle about 5 ms for one customer and 15 ms for every shard in Miniflare,
 * docs/performance.md): the reads of one screen, which come together, share one, and a read within `SETTLED_FOR_MS`
 * of the last one for the same customers in this isolate does not ask again (a peek that old is still exact: what it
 * saw is added only while no settle has checkpointed it, so a later view waits at most that long).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import type { Held } from "../models/held-counts";
import { heldBy, settleCounters } from "./reducer-shards";

/** How long a settle serves later reads in the same isolate: the delivery store's memo is as old (5 s). */
export const SETTLED_FOR_MS = 5_000;
/** Entries kept before the expired ones are dropped. */
const MEMO_MAX = 10_000;

const recent = new Map<string, { until: number; answer: Promise<unknown> }>();

/** The answer of `ask` under `key`, shared with every request of the last `SETTLED_FOR_MS` in this isolate. */
function once<T>(key: string, ask: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const last = recent.get(key);
  if (last && now < last.until) return last.answer as Promise<T>;
  if (recent.size >= MEMO_MAX) {
    for (const [k, entry] of recent) if (entry.until <= now) recent.delete(k);
    if (recent.size >= MEMO_MAX) recent.clear();
  }
  const answer = ask();
  recent.set(key, { until: now + SETTLED_FOR_MS, answer });
  return answer;
}

const settleOnce = (c: Context<AppEnv>, who: readonly string[] | "all"): Promise<void> =>
  once(`settle ${who === "all" ? "*" : who.join(" ")}`, () => settleCounters(c.env, who));

const settledFor = (who: (c: Context<AppEnv>) => readonly string[] | "all") =>
  createMiddleware<AppEnv>(async (c, next) => {
    await settleShown(c, who(c));
    await next();
  });

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

/**
 * What the customer's reducer holds of them, settling nothing (null for a write, or a reducer that cannot say); with
 * `urls` (a page of the analytics list), also those rows' held sums and the `recent` rows of the newest held views,
 * asked each time (the page is not a memo's key).
 */
export function heldFor(
  c: Context<AppEnv>,
  userId: string,
  urls?: readonly string[],
  recent?: number,
): Promise<Held | null> {
  if (c.req.method !== "GET") return Promise.resolve(null);
  if (urls) return heldBy(c.env, userId, urls, recent);
  return once(`held ${userId}`, () => heldBy(c.env, userId));
}

/**
 * For a series (`/timeseries`): the account's adds what the reducer holds; one URL's is settled first, since whether
 * a held view of a new URL counts on the URL's own row depends on the customer's whole day (analytics/count.ts).
 */
export async function seriesHeld(c: Context<AppEnv>, userId: string, query: { url?: string }): Promise<Held | null> {
  if (query.url === undefined) return heldFor(c, userId);
  await settleShown(c, [userId]);
  return null;
}
