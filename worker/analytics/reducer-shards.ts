/**
 * @module Which reducer (reducer.ts) holds a customer's page views, and asking it what it holds (`heldBy`) or to
 * settle: what every reader of a customer's counters calls first, so that a screen never shows less than was counted
 * a minute ago.
 */
import type { Env } from "../env";
import { heldOf, type Held, type HeldPeek } from "../models/held-counts";
import { reducerShards, reducerShardsOf } from "./shard-count";

export {
  REDUCER_MAX_SHARDS,
  reducerShardOf,
  reducerShards,
  reducerShardsOf,
  reducerSlices,
  spreadShardOf,
} from "./shard-count";

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
      for (const shard of reducerShardsOf(env, userId)) byShard.set(shard, [...(byShard.get(shard) ?? []), userId]);
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
 * What the customer's reducers hold of them, settling nothing (models/held-counts.ts adds it to the counters read),
 * with the held sums of the rows `urls` and of the `recent` rows of their newest held views. A reducer that cannot
 * answer is logged, not thrown: the reader then shows the counters with what the others hold (not `complete`), or as
 * they are when none answers (null).
 */
export async function heldBy(
  env: ReducerEnv,
  userId: string,
  urls?: readonly string[],
  recent = 0,
): Promise<Held | null> {
  const shards = reducerShardsOf(env, userId);
  const peeks = await Promise.all(
    shards.map(async (shard): Promise<HeldPeek | null> => {
      try {
        return await reducerOf(env, shard).peek(shard, userId, urls, recent);
      } catch (err) {
        console.warn(`Reducer ${shard} could not say what it holds`, err);
        return null;
      }
    }),
  );
  const answered = peeks.filter((peek) => peek !== null);
  return answered.length === 0 ? null : heldOf(answered, shards.length, urls ?? [], recent);
}
