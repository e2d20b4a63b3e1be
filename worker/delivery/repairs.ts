/**
 * @module Repairs: store entries to write again from D1, kept in D1 (`delivery_repairs`) until written. Writes
 * that failed land here, and so does work too large for one request: the states of every customer on a changed
 * plan, the URL entries of a deleted customer. Drained a bounded number at a time: in the request that asked
 * (up to 100), by every analytics batch (up to 20) and by the daily cron (up to 300), so no invocation goes past
 * the platform's 1,000 KV operations, and each repair is carried out within seconds while traffic flows.
 */
import { createDb } from "../db/client";
import type { Env } from "../env";
import { completeRepair, pendingRepairs, requestRepairs, type Repair } from "../models/delivery-repairs";
import { getUser } from "../models/users";
import { urlKeyPrefix } from "./keys";
import { writeState } from "./store";
import { syncCustomerState, syncUrl } from "./sync";

export const INLINE_REPAIRS = 100;
export const REPAIRS_PER_BATCH = 20;
export const REPAIRS_PER_CRON = 300;
/** Keys a purge deletes per repair step. */
const PURGE_PAGE = 100;

/** Deletes one page of a deleted customer's URL entries; true once none is left. */
async function purgePage(env: Env, userId: string): Promise<boolean> {
  if (await getUser(createDb(env.DB), userId)) return true;
  const listed = await env.DELIVERY.list({ prefix: urlKeyPrefix(userId), limit: PURGE_PAGE });
  await Promise.all(listed.keys.map((key) => env.DELIVERY.delete(key.name)));
  return listed.list_complete;
}

/** Carries a repair out; false when it needs another step. A write that fails asks for the repair again. */
async function carryOut(env: Env, repair: Repair): Promise<boolean> {
  if (repair.target === "state") await syncCustomerState(env, repair.userId);
  else if (repair.target === "purge") return purgePage(env, repair.userId);
  else await syncUrl(env, repair.userId, repair.target.slice("url:".length));
  return true;
}

/** Carries a repair out and removes it when done, unless it was asked for again meanwhile (a failed write). */
async function settle(env: Env, repair: Repair): Promise<boolean> {
  try {
    if (!(await carryOut(env, repair))) return false;
    await completeRepair(createDb(env.DB), repair);
    return true;
  } catch (err) {
    console.error(`Delivery repair of ${repair.userId} (${repair.target}) failed; it stays queued`, err);
    return false;
  }
}

/** Carries out up to `limit` of the oldest repairs; answers how many are done. */
export async function drainRepairs(env: Env, limit: number): Promise<number> {
  let done = 0;
  for (const repair of await pendingRepairs(createDb(env.DB), limit)) if (await settle(env, repair)) done++;
  return done;
}

/** Asks for repairs (durably) and carries out the first `inline` of them at once. */
async function repairNow(env: Env, userIds: string[], target: Repair["target"], inline: number) {
  const requestedAt = new Date();
  await requestRepairs(createDb(env.DB), userIds, target, requestedAt);
  for (const userId of userIds.slice(0, inline)) await settle(env, { userId, target, requestedAt });
}

/**
 * Writes the states of many customers (after a change to the plan they share): all asked for as repairs, the
 * first hundred written at once, the rest by the next analytics batches and the cron.
 */
export async function syncCustomerStates(env: Env, userIds: string[]): Promise<void> {
  await repairNow(env, userIds, "state", INLINE_REPAIRS);
}

/** A deleted customer: nothing is served from now on (O(1)); their URL entries are deleted by the repairs. */
export async function forgetCustomer(env: Env, userId: string): Promise<void> {
  await writeState(env, userId, null);
  await repairNow(env, [userId], "purge", 1);
}
