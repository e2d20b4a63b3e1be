/**
 * @module Write-through: a change that affects delivery writes the store entries it touches, from D1, in the
 * request that made it: the customer's state after a change to their status, plan, limits or billing period, one
 * URL's entry after a change to one mapping, one website's entries after a change to it. O(1) entries per change, whatever the customer's size.
 *
 * Two requests may change the same URL at once, and the write computed from the older D1 state may land last. So
 * every write is followed by one more read of D1, and written again when D1 moved meanwhile: the last write to
 * land is then always checked against the newest state. A write that keeps failing (KV refuses a second write to
 * a key within a second) is handed to the repairs (repairs.ts), never dropped.
 *
 * After URL entries are written, the customer gets a new content version and their state is written with it
 * (`publishContentVersion`): locations keep URL entries under the version they were read with (store.ts), so a new
 * one makes every kept entry of the customer unusable. One version per change, however many URLs it wrote.
 */
import { createDb } from "../db/client";
import type { Env } from "../env";
import { requestRepairs, type RepairTarget } from "../models/delivery-repairs";
import { deliverableAt } from "../models/delivered-mappings";
import { bumpContentVersion } from "../models/users";
import { activeWebsiteAt } from "../models/websites";
import { writeEdgeHost } from "./edge-hosts";
import { NOT_A_CUSTOMER, sameState, stateFromD1, writeState, writeUrlEntry, type CustomerState } from "./store";

const ATTEMPTS = 3;
/** KV takes one write per second per key. */
const SAME_KEY_SPACING_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes what `read` answers until a read after the write answers the same; the value written last. */
async function converge<T>(read: () => Promise<T>, write: (value: T) => Promise<void>, same: (a: T, b: T) => boolean) {
  let value = await read();
  let failure: unknown = new Error("D1 kept changing while its delivery entry was written");
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) await sleep(SAME_KEY_SPACING_MS);
    try {
      await write(value);
      const after = await read();
      if (same(value, after)) return value;
      value = after;
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

/** Records a write that could not be made, so that the repairs make it. */
async function repairLater(env: Env, userId: string, target: RepairTarget, err: unknown) {
  console.error(`Delivery store write for ${userId} (${target}) failed; left to the repairs`, err);
  try {
    await requestRepairs(createDb(env.DB), [userId], target);
  } catch (repairErr) {
    console.error(`Could not record the repair of ${userId} (${target}): run npm run delivery:rebuild`, repairErr);
  }
}

/**
 * Writes the customer's state from D1 and answers what was written (for a customer that does not exist: nothing
 * is served), or null when the write was left to the repairs.
 */
export async function syncCustomerState(env: Env, userId: string): Promise<CustomerState | null> {
  const db = createDb(env.DB);
  try {
    const state = await converge(
      () => stateFromD1(db, userId, { published: true }),
      (s) => writeState(env, userId, s),
      sameState,
    );
    return state ?? NOT_A_CUSTOMER;
  } catch (err) {
    await repairLater(env, userId, "state", err);
    return null;
  }
}

/**
 * Writes what one of the customer's URLs (or prefixes) delivers, from D1, and nothing else: the caller then calls
 * `publishContentVersion` once for all the URLs it wrote. False when the write was left to the repairs.
 */
export async function writeUrl(env: Env, userId: string, normalizedUrl: string): Promise<boolean> {
  const db = createDb(env.DB);
  try {
    await converge(
      () => deliverableAt(db, userId, normalizedUrl),
      ({ fallback, audiences }) => writeUrlEntry(env, userId, normalizedUrl, fallback, audiences),
      // The whole mapping: an edit (PATCH) changes what a URL delivers without changing its mapping.
      (a, b) => JSON.stringify(a) === JSON.stringify(b),
    );
    return true;
  } catch (err) {
    await repairLater(env, userId, `url:${normalizedUrl}`, err);
    return false;
  }
}

/**
 * After some of the customer's URL entries were written (or tried: one may have landed before a failure): a new
 * content version in D1, then the state, which carries it (and the depths of their prefixes). Later than every entry
 * it covers, so that a version older than KV's propagation means its entries are visible everywhere. False when a
 * write was left to the repairs.
 */
export async function publishContentVersion(env: Env, userId: string): Promise<boolean> {
  try {
    await bumpContentVersion(createDb(env.DB), userId);
  } catch (err) {
    await repairLater(env, userId, "version", err);
    return false;
  }
  return (await syncCustomerState(env, userId)) !== null;
}

/**
 * Writes what the customer's URLs (or prefixes) deliver, from D1 (after a mapping there was added, changed or
 * deleted), then their new content version. False when a write was left to the repairs: the change is saved, but
 * not delivered yet.
 */
export async function syncUrls(env: Env, userId: string, normalizedUrls: string[]): Promise<boolean> {
  const written = await Promise.all(normalizedUrls.map((url) => writeUrl(env, userId, url)));
  // None written: the repairs write them, then a version (repairs.ts).
  if (normalizedUrls.length > 0 && !written.includes(true)) return false;
  return (await publishContentVersion(env, userId)) && !written.includes(false);
}

export const syncUrl = (env: Env, userId: string, normalizedUrl: string) => syncUrls(env, userId, [normalizedUrl]);

/**
 * Writes the entries of the website at `hostname` from D1 (after the customer's claim of it was made, proven,
 * changed or released), then the customer's state. False when a write was left to the repairs: the change is saved, but not delivered yet.
 */
export async function syncEdgeHost(env: Env, userId: string, hostname: string): Promise<boolean> {
  const db = createDb(env.DB);
  try {
    await converge(
      () => activeWebsiteAt(db, hostname),
      (website) => writeEdgeHost(env, hostname, website, userId),
      (a, b) => a?.userId === b?.userId && a?.origin === b?.origin && a?.mode === b?.mode,
    );
  } catch (err) {
    await repairLater(env, userId, `host:${hostname}`, err);
    return false;
  }
  // The customer's state lists their edge websites.
  return (await syncCustomerState(env, userId)) !== null;
}
