/**
 * @module Repairs: store entries to write again from D1, kept in D1 (`delivery_repairs`) until written. Writes
 * that failed land here, and so does work too large for one request: the states of every customer on a changed
 * plan, the URL entries and edge websites of a deleted customer. Drained within a budget of KV writes at a
 * time: in the request that asked (100), by the minute cron (100) and by the daily cron (200), so that no
 * invocation comes near the platform's 1,000 KV operations and 1,000 D1 queries, and a repair is carried out
 * within a minute.
 */
import { createDb } from "../db/client";
import type { Env } from "../env";
import type { DeliverySyncMessage } from "../messages/delivery-sync";
import {
  completeRepair,
  pendingRepairs,
  pendingRepairsBetween,
  requestRepairs,
  requestUrlRepairs,
  type Repair,
  type RepairTarget,
} from "../models/delivery-repairs";
import { getUser } from "../models/users";
import { urlKeyPrefix } from "./keys";
import { writeState } from "./store";
import { purgeEdgeHosts } from "./edge-hosts";
import { publishContentVersion, syncCustomerState, syncEdgeHost, writeUrl } from "./sync";

/** Budgets in KV writes: a state or URL repair costs one, a purge step one per key it deletes (at most 50). */
export const INLINE_REPAIRS = 100;
export const REPAIRS_PER_MINUTE = 100;
export const REPAIRS_PER_CRON = 200;
const PURGE_PAGE = 50;

/** Deletes up to `keys` of a deleted customer's URL entries, then their edge websites; true once none is left. */
async function purgePage(env: Env, userId: string, keys: number): Promise<boolean> {
  if (await getUser(createDb(env.DB), userId)) return true;
  const listed = await env.DELIVERY.list({ prefix: urlKeyPrefix(userId), limit: keys });
  await Promise.all(listed.keys.map((key) => env.DELIVERY.delete(key.name)));
  return listed.list_complete && (await purgeEdgeHosts(env, userId, keys));
}

/**
 * The customers a run writes URL entries of: each owes one new content version once the run's entries are written.
 * It is asked for as a repair before their first entry, so that a run cut short leaves it to the next drain.
 */
class OwedVersions {
  private readonly owed = new Set<string>();
  private readonly requestedAt = new Date();

  constructor(private readonly env: Env) {}

  async add(userId: string): Promise<void> {
    if (this.owed.has(userId)) return;
    this.owed.add(userId);
    await requestRepairs(createDb(this.env.DB), [userId], "version", this.requestedAt);
  }

  /** Publishes each owed version; true when every one was (else the rest stay repairs). */
  async publish(): Promise<boolean> {
    let published = true;
    for (const userId of this.owed) {
      const done = await publishContentVersion(this.env, userId);
      if (done)
        await completeRepair(createDb(this.env.DB), { userId, target: "version", requestedAt: this.requestedAt });
      published &&= done;
    }
    return published;
  }
}

/**
 * Carries a repair out within `budget` KV writes, and removes it when done, unless it was asked for again
 * meanwhile (a write that failed again). Answers the KV writes it spent. A URL's entry is written alone: its
 * customer's new content version is owed (`OwedVersions`).
 */
async function settle(env: Env, repair: Repair, budget: number, versions: OwedVersions): Promise<number> {
  const keys = Math.min(PURGE_PAGE, budget);
  try {
    let done = true;
    if (repair.target === "state") await syncCustomerState(env, repair.userId);
    else if (repair.target === "version") done = await publishContentVersion(env, repair.userId);
    else if (repair.target === "purge") done = await purgePage(env, repair.userId, keys);
    else if (repair.target.startsWith("host:")) await syncEdgeHost(env, repair.userId, repair.target.slice(5));
    else {
      await versions.add(repair.userId);
      done = await writeUrl(env, repair.userId, repair.target.slice("url:".length));
    }
    if (done) await completeRepair(createDb(env.DB), repair);
  } catch (err) {
    console.error(`Delivery repair of ${repair.userId} (${repair.target}) failed; it stays queued`, err);
  }
  return repair.target === "purge" ? keys : 1;
}

/** Carries out the oldest repairs within `budget` KV writes. */
export async function drainRepairs(env: Env, budget: number): Promise<void> {
  const versions = new OwedVersions(env);
  for (const repair of await pendingRepairs(createDb(env.DB), budget)) {
    if (budget <= 0) break;
    budget -= await settle(env, repair, budget, versions);
  }
  await versions.publish();
}

/** Asks for repairs (durably) and carries out the first of them at once, within `budget` KV writes. */
async function repairNow(env: Env, userIds: string[], target: Repair["target"], budget: number) {
  const requestedAt = new Date();
  await requestRepairs(createDb(env.DB), userIds, target, requestedAt);
  const versions = new OwedVersions(env);
  for (const userId of userIds) {
    if (budget <= 0) break;
    budget -= await settle(env, { userId, target, requestedAt }, budget, versions);
  }
  await versions.publish();
}

/**
 * Writes the states of many customers (after a change to the plan they share): all asked for as repairs, the
 * first hundred written at once, the rest by the next minutes' crons.
 */
export async function syncCustomerStates(env: Env, userIds: string[]): Promise<void> {
  await repairNow(env, userIds, "state", INLINE_REPAIRS);
}

/** A deleted customer: nothing is served from now on (O(1)); their URL entries are deleted by the repairs. */
export async function forgetCustomer(env: Env, userId: string): Promise<void> {
  await writeState(env, userId, null);
  await repairNow(env, [userId], "purge", PURGE_PAGE);
}

/** URL entries per message of the delivery queue: one consumer invocation writes at most this many. */
export const URLS_PER_SYNC_MESSAGE = 100;
/** Entries written at once, in parallel, by the request that changed them. */
const PARALLEL_WRITES = 10;

/**
 * Writes many of one customer's URL entries (a bulk import): all asked for as repairs first (durably), the first
 * hundred written at once (then one new content version), the rest handed to the delivery queue in ranges of 100,
 * which its consumers write in parallel within seconds (a version per range); whatever a message misses stays a
 * repair for the next drain. True when every entry was written now.
 */
export async function syncUrlsSoon(env: Env, userId: string, normalizedUrls: string[]): Promise<boolean> {
  const db = createDb(env.DB);
  const targets = [...new Set(normalizedUrls)].map((url): RepairTarget => `url:${url}`).sort();
  const requestedAt = new Date();
  await requestUrlRepairs(
    db,
    userId,
    targets.map((t) => t.slice("url:".length)),
    requestedAt,
  );
  const now = targets.slice(0, INLINE_REPAIRS);
  const versions = new OwedVersions(env);
  if (now.length > 0) await versions.add(userId);
  let written = true;
  for (let i = 0; i < now.length; i += PARALLEL_WRITES) {
    const results = await Promise.all(
      now.slice(i, i + PARALLEL_WRITES).map(async (target) => {
        if (!(await writeUrl(env, userId, target.slice("url:".length)))) return false;
        await completeRepair(db, { userId, target, requestedAt });
        return true;
      }),
    );
    written &&= !results.includes(false);
  }
  written = (await versions.publish()) && written;
  const later: DeliverySyncMessage[] = [];
  for (let i = INLINE_REPAIRS; i < targets.length; i += URLS_PER_SYNC_MESSAGE) {
    const range = targets.slice(i, i + URLS_PER_SYNC_MESSAGE);
    later.push({ userId, first: range[0]!, last: range.at(-1)! });
  }
  // A queue takes at most 100 messages per send.
  for (let i = 0; i < later.length; i += 100) {
    await env.DELIVERY_QUEUE.sendBatch(later.slice(i, i + 100).map((body) => ({ body })));
  }
  return written && later.length === 0;
}

/** The delivery queue's consumer: writes each message's range of URL entries (those still asked for). */
export async function consumeDeliverySyncs(batch: MessageBatch<DeliverySyncMessage>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const { userId, first, last } = message.body;
    const versions = new OwedVersions(env);
    for (const repair of await pendingRepairsBetween(db, userId, first, last, URLS_PER_SYNC_MESSAGE)) {
      await settle(env, repair, 1, versions);
    }
    await versions.publish();
    message.ack();
  }
}
