/**
 * @module How many reducers there are and which one holds a customer's page views: plain code (no Worker types), so
 * that `npm run bench` models the same shards in Node.
 */
import { fnv1a32 } from "../lib/hash";

/** The setting (wrangler.toml's ANALYTICS_REDUCER_SHARDS) that says how many. */
type ShardSetting = { ANALYTICS_REDUCER_SHARDS?: string };

/** The most reducers ANALYTICS_REDUCER_SHARDS may ask for: four times the default (about 40 million pages). */
export const REDUCER_MAX_SHARDS = 256;
/**
 * Sized for 10,000 million views a month over 10 million pages (docs/scaling.md): most shards hold a day's distinct
 * pages within a reducer's 150,000 sums (reducer-sums.ts `MAX_HELD_SUMS`) and settle once a day; a shard holding a
 * customer with a million pages settles at its cap (`npm run bench` counts it); 48 million visitors a day are counted
 * exactly.
 */
const DEFAULT_SHARDS = 64;

export function reducerShards(env: ShardSetting): number {
  const shards = Math.floor(Number(env.ANALYTICS_REDUCER_SHARDS ?? DEFAULT_SHARDS));
  return Number.isFinite(shards) && shards >= 1 ? Math.min(shards, REDUCER_MAX_SHARDS) : DEFAULT_SHARDS;
}

/** The customer's shard: a hash of their id (FNV-1a), the same in every isolate. */
export function reducerShardOf(env: ShardSetting, userId: string): number {
  return fnv1a32(userId) % reducerShards(env);
}
