/**
 * @module Which reducer (reducer.ts) holds a customer's page views, and asking it what it holds (`heldBy`) or to
 * settle: what every reader of a customer's counters calls first, so that a screen never shows less than was counted
 * a minute ago.
 */
import type { Env } from "../env";
import type { HeldPeek } from "../models/held-counts";
import { fnv1a32 } from "../lib/hash";

/**
 * Sums per part of a handoff (`hold`), and per stored row of sums: a range of many distinct URLs (a visitor asking
 * for random paths) travels in parts, each far below a Durable Object call's 32 MiB, and by `sumChunks` below D1's
 * and a Durable Object's 2 MB per value whatever the URLs' length (about 200 bytes a sum of a short URL).
 */
export const HOLD_MAX_SUMS = 5_000;
/** The JSON a part or a stored row of sums may hold, about: below the 2 MB a value may take in D1 or a reducer. */
export const SUMS_MAX_BYTES = 1_500_000;

const utf8 = new TextEncoder();
/** About a sum's JSON: its URL in UTF-8 and 200 bytes for the rest (its customer, day, mapping and counts). */
const sumBytes = (sum: { url: string }) => utf8.encode(sum.url).byteLength + 200;

/** The sums in order, in runs of at most `HOLD_MAX_SUMS` sums and about `SUMS_MAX_BYTES` each (one sum at least). */
export function sumChunks<T extends { url: string }>(sums: readonly T[]): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const sum of sums) {
    const size = sumBytes(sum);
    if (run.length > 0 && (run.length >= HOLD_MAX_SUMS || bytes + size > SUMS_MAX_BYTES)) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(sum);
    bytes += size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** The most reducers ANALYTICS_REDUCER_SHARDS may ask for. */
export const REDUCER_MAX_SHARDS = 64;
const DEFAULT_SHARDS = 4;

type ReducerEnv = Pick<Env, "ANALYTICS_REDUCER" | "ANALYTICS_REDUCER_SHARDS">;

export function reducerShards(env: Pick<Env, "ANALYTICS_REDUCER_SHARDS">): number {
  const shards = Math.floor(Number(env.ANALYTICS_REDUCER_SHARDS ?? DEFAULT_SHARDS));
  return Number.isFinite(shards) && shards >= 1 ? Math.min(shards, REDUCER_MAX_SHARDS) : DEFAULT_SHARDS;
}

/** The customer's shard: a hash of their id (FNV-1a), the same in every isolate. */
export function reducerShardOf(env: Pick<Env, "ANALYTICS_REDUCER_SHARDS">, userId: string): number {
  return fnv1a32(userId) % reducerShards(env);
}

export const reducerOf = (env: ReducerEnv, shard: number) =>
  env.ANALYTICS_REDUCER.getByName(`analytics-reducer-${shard}`);

/**
 * Adds what the reducers hold of these customers (every customer, for "all") to the counters. A reducer that
 * cannot is logged, not thrown: the reader then shows the counters as they are, and the sums stay held.
 */
export async function settleCounters(env: ReducerEnv, userIds: readonly string[] | "all"): Promise<void> {
  const byShard = new Map<number, string[] | null>();
  if (userIds === "all") {
    for (let shard = 0; shard < reducerShards(env); shard++) byShard.set(shard, null);
  } else {
    for (const userId of userIds) {
      const shard = reducerShardOf(env, userId);
      byShard.set(shard, [...(byShard.get(shard) ?? []), userId]);
    }
  }
  await Promise.all(
    [...byShard].map(async ([shard, ids]) => {
      try {
        await reducerOf(env, shard).settle(shard, ids);
      } catch (err) {
        console.warn(`Reducer ${shard} could not settle its page views`, err);
      }
    }),
  );
}

/**
 * What the customer's reducer holds of them, settling nothing (models/held-counts.ts adds it to the counters read).
 * A reducer that cannot answer is logged, not thrown: the reader then shows the counters as they are (null).
 */
export async function heldBy(env: ReducerEnv, userId: string): Promise<HeldPeek | null> {
  const shard = reducerShardOf(env, userId);
  try {
    return await reducerOf(env, shard).peek(shard, userId);
  } catch (err) {
    console.warn(`Reducer ${shard} could not say what it holds`, err);
    return null;
  }
}
