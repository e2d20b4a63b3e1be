/**
 * @module Rebuilds customers' delivery entries from D1, for repair after an incident (`npm run delivery:rebuild`,
 * scripts/ops/delivery-rebuild.mts) and once after the move from one document per customer to this store. It works
 * in bounded pages (20 URLs, 1,000 listed keys, 100 customers or websites), so memory and each step stay small whatever
 * the size. While it runs the customer's state says the store is incomplete, so a URL not yet written is looked
 * up in D1 rather than answered as unmapped. Changes made meanwhile write their own entries as usual.
 */
import { createDb } from "../db/client";
import type { Env } from "../env";
import { deliverableAt, deliveringUrlsPage, stillDeliveredMappings } from "../models/delivered-mappings";
import { getUser, setDeliveryStoreComplete, userIdsPage } from "../models/users";
import { activeWebsiteAt, customerWebsites } from "../models/websites";
import { purgeEdgeHost, writeEdgeHost } from "./edge-hosts";
import { edgeHostIndexPrefix, legacyDocumentKey, urlKey, urlKeyPrefix } from "./keys";
import { listedMappingId, writeState, writeUrlEntry } from "./store";
import { publishContentVersion, syncCustomerState } from "./sync";

/** A URL's entry holds at most 4 MB of audience mappings and its fallback (docs/audiences.md): 20 at a time. */
const URLS_PER_PAGE = 20;
const KEYS_PER_PAGE = 1_000;
const CUSTOMERS_PER_PAGE = 100;

export interface RebuildResult {
  /** URL entries written from D1. */
  written: number;
  /** Entries removed: their mapping is gone, a draft, or no longer the newest at its URL. */
  removed: number;
}

/**
 * Writes the entry of every URL the customer's mappings deliver: its fallback and its audience mappings
 * (docs/audiences.md), also where every mapping of the URL has an audience.
 */
async function writeDelivered(env: Env, userId: string): Promise<number> {
  const db = createDb(env.DB);
  let written = 0;
  for (let after = ""; ;) {
    const urls = await deliveringUrlsPage(db, userId, after, URLS_PER_PAGE);
    await Promise.all(
      urls.map(async (url) => {
        const { fallback, audiences } = await deliverableAt(db, userId, url);
        await writeUrlEntry(env, userId, url, fallback, audiences);
      }),
    );
    written += urls.length;
    if (urls.length < URLS_PER_PAGE) return written;
    after = urls.at(-1)!;
  }
}

/** Deletes the customer's entries that D1 no longer delivers (all of them for a deleted customer). */
async function removeStale(env: Env, userId: string, exists: boolean): Promise<number> {
  const db = createDb(env.DB);
  let removed = 0;
  let cursor: string | undefined;
  do {
    const listed = await env.DELIVERY.list({ prefix: urlKeyPrefix(userId), limit: KEYS_PER_PAGE, cursor });
    const ids = listed.keys.map(listedMappingId).filter((id): id is number => id !== null);
    const still = exists ? await stillDeliveredMappings(db, userId, ids) : [];
    const valid = new Set(await Promise.all(still.map((m) => urlKey(userId, m.normalizedUrl))));
    const stale = listed.keys.filter((key) => !valid.has(key.name));
    await Promise.all(stale.map((key) => env.DELIVERY.delete(key.name)));
    removed += stale.length;
    cursor = listed.list_complete ? undefined : listed.cursor;
  } while (cursor);
  return removed;
}

/** Writes the entries of the customer's edge websites from D1 and deletes those D1 no longer has. */
async function rebuildEdgeHosts(env: Env, userId: string): Promise<void> {
  const db = createDb(env.DB);
  const prefix = edgeHostIndexPrefix(userId);
  let cursor: string | undefined;
  do {
    const listed = await env.DELIVERY.list({ prefix, limit: KEYS_PER_PAGE, cursor });
    for (const key of listed.keys) {
      const hostname = key.name.slice(prefix.length);
      const website = await activeWebsiteAt(db, hostname);
      if (website?.userId === userId && website.mode === "edge") continue;
      // Gone, or another customer's since: only this customer's index entry goes (purgeEdgeHosts keeps theirs).
      await purgeEdgeHost(env, userId, hostname);
    }
    cursor = listed.list_complete ? undefined : listed.cursor;
  } while (cursor);
  for (let offset = 0; ; offset += CUSTOMERS_PER_PAGE) {
    const hostnames = await customerWebsites(db, userId, { limit: CUSTOMERS_PER_PAGE, offset });
    await Promise.all(hostnames.map((w) => writeEdgeHost(env, w.hostname, w, userId)));
    if (hostnames.length < CUSTOMERS_PER_PAGE) return;
  }
}

/** Rebuilds one customer's state and URL entries from D1; a customer that no longer exists loses them all. */
export async function rebuildCustomer(env: Env, userId: string): Promise<RebuildResult> {
  const db = createDb(env.DB);
  await env.DELIVERY.delete(legacyDocumentKey(userId));
  if (!(await getUser(db, userId))) {
    await writeState(env, userId, null);
    const removed = await removeStale(env, userId, false);
    await rebuildEdgeHosts(env, userId);
    return { written: 0, removed };
  }
  await setDeliveryStoreComplete(db, userId, false);
  await syncCustomerState(env, userId);
  const written = await writeDelivered(env, userId);
  const removed = await removeStale(env, userId, true);
  await rebuildEdgeHosts(env, userId);
  await setDeliveryStoreComplete(db, userId, true);
  // A new content version: locations may keep entries read before or during the rebuild.
  await publishContentVersion(env, userId);
  return { written, removed };
}

/** Rebuilds every customer, a page of them at a time; `onCustomer` hears of each one done. */
export async function rebuildAll(
  env: Env,
  onCustomer: (userId: string, result: RebuildResult) => void = () => {},
): Promise<number> {
  const db = createDb(env.DB);
  let customers = 0;
  for (let after = ""; ;) {
    const ids = await userIdsPage(db, after, CUSTOMERS_PER_PAGE);
    for (const userId of ids) {
      onCustomer(userId, await rebuildCustomer(env, userId));
      customers++;
    }
    if (ids.length < CUSTOMERS_PER_PAGE) return customers;
    after = ids.at(-1)!;
  }
}
