/**
 * @module How many reducers there are and which ones hold a customer's page views: plain code (no Worker types), so
 * that `npm run bench` models the same shards in Node.
 */
import { fmix32, fnv1a32 } from "../lib/hash";

/** The setting (wrangler.toml's ANALYTICS_REDUCER_SHARDS) that says how many. */
type ShardSetting = { ANALYTICS_REDUCER_SHARDS?: string };

/** The most reducers ANALYTICS_REDUCER_SHARDS may ask for: twice the default (about 40 million pages). */
export const REDUCER_MAX_SHARDS = 256;
/**
 * Sized for 10,000 million views a month over 10 million pages (docs/scaling.md): most shards hold a day's distinct
 * pages within a reducer's 150,000 sums (reducer-sums.ts `MAX_HELD_SUMS`) and settle once a day, customers without a
 * limit spread over `reducerSlices` of them; a shard holding a metered customer with several hundred thousand pages
 * settles at its cap (`npm run bench` counts it); 48 million visitors a day are counted exactly.
 */
const DEFAULT_SHARDS = 128;
/** The most shards one customer's pages spread over. */
const MAX_SLICES = 16;

export function reducerShards(env: ShardSetting): number {
  const shards = Math.floor(Number(env.ANALYTICS_REDUCER_SHARDS ?? DEFAULT_SHARDS));
  return Number.isFinite(shards) && shards >= 1 ? Math.min(shards, REDUCER_MAX_SHARDS) : DEFAULT_SHARDS;
}

/**
 * Over how many shards a customer without a limit spreads their pages: an eighth of the shards, at most 16 (so a
 * shard's room is shared by few customers' slices, and a failing shard keeps few customers waiting); 1 below 16 shards.
 */
export function reducerSlices(env: ShardSetting): number {
  return Math.max(1, Math.min(MAX_SLICES, Math.floor(reducerShards(env) / 8)));
}

/**
 * The customer's shard: a hash of their id (FNV-1a), the same in every isolate. It holds all of a metered
 * customer's page views (their visitors and what they may still spend are judged in one place), and a spread
 * customer's first slice.
 */
export function reducerShardOf(env: ShardSetting, userId: string): number {
  return fnv1a32(userId) % reducerShards(env);
}

/** Every shard that may hold the customer's page views: their shard and the next ones, one per slice. */
export function reducerShardsOf(env: ShardSetting, userId: string): number[] {
  const first = reducerShardOf(env, userId);
  const shards = reducerShards(env);
  return Array.from({ length: reducerSlices(env) }, (_, slice) => (first + slice) % shards);
}

/** The shard that holds a spread customer's views of this URL: their slice of it, by a hash of the URL. */
export function spreadShardOf(env: ShardSetting, userId: string, url: string): number {
  return (reducerShardOf(env, userId) + (fmix32(fnv1a32(url)) % reducerSlices(env))) % reducerShards(env);
}
