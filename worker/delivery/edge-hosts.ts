/**
 * @module The delivery store's entries of edge websites: per proven (active) hostname in edge mode, the customer
 * and the origin the Worker proxies to (delivery/edge-proxy.ts), plus an index entry per customer so that deleting
 * a customer deletes their hostnames. The hot path reads one small entry per hostname, memoised in the isolate and
 * kept in the location's cache for a minute (an unknown hostname too), and for up to an hour while the change feed
 * knows it unchanged (change-feed.ts), so a host costs a location one KV read an hour at most; a change of a website
 * shows at its writer's location at once, elsewhere within KV's minute and this one.
 */
import type { Website } from "../db/schema";
import type { Env } from "../env";
import { recordChange, stillCurrent } from "./change-feed";
import { KEPT_UNCHANGED_MS } from "./change-feed-follower";
import { edgeHostIndexKey, edgeHostIndexPrefix, edgeHostKey, legacyEdgeHostKey } from "./keys";
import { dropCached, readCached, writeCached } from "./location-cache";
import { IsolateMemo, memoBytes } from "./memo";

export interface EdgeHost {
  userId: string;
  origin: string;
  /** Where its pages' own subresources are fetched from instead (absent: from the website, through the Worker). */
  assetOrigin?: string;
}

/** The entry of an active claim in edge mode; an entry without an asset origin is as it was before the option. */
const edgeHostOf = (website: Website): EdgeHost => ({
  userId: website.userId,
  origin: website.origin,
  ...(website.assetOrigin ? { assetOrigin: website.assetOrigin } : {}),
});

const hostBytes = (hostname: string, host: EdgeHost | null) =>
  memoBytes(hostname, host?.userId ?? "", host?.origin ?? "", host?.assetOrigin ?? "");

const MEMO_MS = 5_000;
/** How long a location keeps what it read of a hostname by itself; longer while the change feed knows it unchanged. */
export const EDGE_HOST_CACHE_MS = 60_000;
const hostMemo = new IsolateMemo<EdgeHost | null>(MEMO_MS, 1024 * 1024);

/** The edge website at `hostname`, or null when the hostname is not one. */
export async function readEdgeHost(env: Env, hostname: string, now = Date.now()): Promise<EdgeHost | null> {
  const memoed = hostMemo.get(hostname, now);
  if (memoed !== undefined) return memoed;
  const key = edgeHostKey(hostname);
  // Kept as { h } so that "not an edge website" (null) is kept too; `r`: when it was read from KV.
  const kept = (await readCached<{ h: EdgeHost | null; r: number }>(env, key, now))?.value;
  let host = kept && stillCurrent(key, kept.r, now, EDGE_HOST_CACHE_MS) ? kept.h : undefined;
  if (host === undefined) {
    host = await env.DELIVERY.get<EdgeHost>(key, "json");
    await writeCached(env, key, { h: host, r: now }, now, now + KEPT_UNCHANGED_MS);
  }
  hostMemo.set(hostname, host, hostBytes(hostname, host), now);
  return host;
}

/**
 * Writes the entries of `hostname` as D1 has them: present when its active claim (`active`) is in edge mode,
 * absent otherwise. `userId`, a customer whose claim just changed, loses their index entry unless they hold it.
 */
export async function writeEdgeHost(
  env: Env,
  hostname: string,
  active: Website | undefined,
  userId?: string,
  now = Date.now(),
) {
  const host = active?.status === "active" && active.mode === "edge" ? edgeHostOf(active) : null;
  if (host) {
    await env.DELIVERY.put(edgeHostKey(hostname), JSON.stringify(host));
    await env.DELIVERY.put(edgeHostIndexKey(host.userId, hostname), "");
  } else {
    await env.DELIVERY.delete(edgeHostKey(hostname));
  }
  if (userId && userId !== host?.userId) await env.DELIVERY.delete(edgeHostIndexKey(userId, hostname));
  // Entries of the store before claims were proven (`h:`) never serve again; a write or rebuild clears them.
  await env.DELIVERY.delete(legacyEdgeHostKey(hostname));
  await recordChange(env, edgeHostKey(hostname), now);
  hostMemo.set(hostname, host, hostBytes(hostname, host), now);
  await dropCached(env, edgeHostKey(hostname));
}

/** Deletes a hostname's entries of this customer: the index entry, and the host entry while it is still theirs. */
export async function purgeEdgeHost(env: Env, userId: string, hostname: string): Promise<void> {
  const hostKey = edgeHostKey(hostname);
  // The hostname may have been claimed by another customer since: their entry stays.
  if ((await env.DELIVERY.get<EdgeHost>(hostKey, "json"))?.userId === userId) await env.DELIVERY.delete(hostKey);
  await env.DELIVERY.delete(edgeHostIndexKey(userId, hostname));
  await recordChange(env, hostKey);
  hostMemo.delete(hostname);
  await dropCached(env, hostKey);
}

/** Deletes up to `limit` of a deleted customer's edge websites; true once none is left. */
export async function purgeEdgeHosts(env: Env, userId: string, limit: number): Promise<boolean> {
  const prefix = edgeHostIndexPrefix(userId);
  const listed = await env.DELIVERY.list({ prefix, limit: Math.max(1, Math.floor(limit / 2)) });
  await Promise.all(listed.keys.map((key) => purgeEdgeHost(env, userId, key.name.slice(prefix.length))));
  return listed.list_complete;
}
