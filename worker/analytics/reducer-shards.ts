/**
 * @module Which reducer (reducer.ts) holds a customer's page views, and asking it what it holds (`heldBy`) or to
 * settle: what every reader of a customer's counters calls first, so that a screen never shows less than was counted
 * a minute ago.
 */
import type { Env } from "../env";
import type { HeldPeek } from "../models/held-counts";
import { reducerShardOf, reducerShards } from "./shard-count";

export { REDUCER_MAX_SHARDS, reducerShardOf, reducerShards } from "./shard-count";

type ReducerEnv = Pick<Env, "ANALYTICS_REDUCER" | "ANALYTICS_REDUCER_SHARDS">;

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
 * What the customer's reducer holds of them, settling nothing (models/held-counts.ts adds it to the counters read),
 * with the held sums of the rows `urls` and of the `recent` rows of their newest held views. A reducer that cannot
 * answer is logged, not thrown: the reader then shows the counters as they are (null).
 */
export async function heldBy(
  env: ReducerEnv,
  userId: string,
  urls?: readonly string[],
  recent?: number,
): Promise<HeldPeek | null> {
  const shard = reducerShardOf(env, userId);
  try {
    return await reducerOf(env, shard).peek(shard, userId, urls, recent);
  } catch (err) {
    console.warn(`Reducer ${shard} could not say what it holds`, err);
    return null;
  }
}
