/**
 * @module A change of `ANALYTICS_REDUCER_SHARDS` without held sums left unseen (performance review of 2026-11-27,
 * risk 5). The held sums stay where the count they were routed by put them (`reducer_layout`), so the minute cron
 * keeps routing by that count until every handoff begun under it is finished, then settles each of its shards and
 * records the new count: from then on reads, limits and period ends find every customer's views in their shards.
 * Between the deploy and that minute a reader asks the new shard and may miss what the old one holds.
 */
import { createDb } from "../db/client";
import type { Env } from "../env";
import { recordedShards, recordShards } from "../models/reducer-layout";
import { unfinishedHandoffs } from "./handoff";
import { reducerOf, reducerShards } from "./reducer-shards";

/** The default before issue 43: what routed the held sums of a deployment that recorded no count and set none. */
const SHARDS_BEFORE_RECORDING = 4;

/** The env with the shard count the held sums are routed by: this minute's fold hands off by it. */
export async function routedReducers(env: Env): Promise<Env> {
  const wanted = reducerShards(env);
  const db = createDb(env.DB);
  const recorded = await recordedShards(db);
  const routed = recorded ?? (env.ANALYTICS_REDUCER_SHARDS === undefined ? SHARDS_BEFORE_RECORDING : wanted);
  if (routed === wanted) {
    if (recorded === null) await recordShards(db, wanted);
    return env;
  }
  const old: Env = { ...env, ANALYTICS_REDUCER_SHARDS: String(routed) };
  // A handoff begun under the old count is redone in the same parts to the same shards, or a part could be held twice.
  if ((await unfinishedHandoffs(env.DB)).length > 0) return old;
  const settled = await Promise.allSettled(
    Array.from({ length: routed }, (_, shard) => reducerOf(env, shard).settle(shard, null)),
  );
  const failed = settled.flatMap((result, shard) => (result.status === "rejected" ? [shard] : []));
  if (failed.length > 0) {
    console.warn(
      `Reducers: ${routed} shards become ${wanted} once every old shard has settled; shards ${failed.join(", ")} ` +
        `could not, tried again next minute`,
    );
    return old;
  }
  await recordShards(db, wanted);
  console.log(`Reducers: the ${routed} shards' held sums settled; page views now go to ${wanted} shards`);
  return env;
}
