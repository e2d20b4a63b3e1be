/**
 * @module The queue consumer. Per batch: its customers are loaded once (billing brought up to now), page views of
 * websites that are not the customer's dropped (one query for the batch), its events archived to R2, then counted in one D1 transaction (record.ts), then the delivery state of each customer whose
 * limit was reached (or lifted) by it is written. Anything failing before the count leaves nothing counted and
 * retries the whole batch; the ledger of message ids keeps a retried event from being counted twice. A batch that
 * fails ten times waits in the dead-letter queue (wrangler.toml). After a batch: expired raw rows are purged and
 * delivery repairs carried out, each within a small budget.
 */
import { createDb } from "../db/client";
import { drainRepairs, REPAIRS_PER_BATCH } from "../delivery/repairs";
import { syncCustomerState } from "../delivery/sync";
import type { Env } from "../env";
import { runIndependentSteps } from "../lib/independent-steps";
import { deliveryLimitReached, isMetered, type DeliveryLimitState } from "../models/limits";
import { websitesAmong } from "../models/websites";
import { hostOf } from "#contract/normalize-url";
import { archiveEvents, archiveKey, batchIdOf } from "./archive";
import { loadBatchCustomers } from "./batch-customers";
import type { AnalyticsMessage } from "../messages/analytics";
import { recordAnalytics, toRawEvent, type PeriodCounters } from "./record";
import { PURGE_ROWS_PER_BATCH, purgeRawWindow, purgeVisitorDays } from "./retention";

/** Each message once, even when the queue delivers one twice in a batch. */
function uniqueMessages(batch: MessageBatch<AnalyticsMessage>): AnalyticsMessage[] {
  return [...new Map(batch.messages.map((m) => [m.body.id, m.body])).values()];
}

function uniquePairs(pairs: { userId: string; host: string }[]) {
  return [...new Map(pairs.map((p) => [`${p.userId} ${p.host}`, p])).values()];
}

/** Writes the states of the customers whose limit this batch reached (or, after a rollover, lifted). */
async function markLimitChanges(env: Env, before: Map<string, DeliveryLimitState>, after: PeriodCounters[]) {
  for (const counters of after) {
    const usage = before.get(counters.userId);
    if (usage && deliveryLimitReached(usage) !== deliveryLimitReached({ ...usage, ...counters })) {
      await syncCustomerState(env, counters.userId);
    }
  }
}

export async function consumeAnalytics(batch: MessageBatch<AnalyticsMessage>, env: Env): Promise<void> {
  try {
    const messages = uniqueMessages(batch);
    const customers = await loadBatchCustomers(env, [...new Set(messages.map((m) => m.userId))], new Date());
    // Messages of customers deleted in the meantime are dropped rather than failing the batch, and so are page
    // views of websites the customer has no mapping on: anyone can send us a customer's id with any URL.
    const known = messages
      .filter((m) => customers.has(m.userId))
      .map((m) => toRawEvent(m, isMetered(customers.get(m.userId)!)));
    const theirs = await websitesAmong(
      createDb(env.DB),
      uniquePairs(known.filter((e) => !e.delivered).map((e) => ({ userId: e.userId, host: hostOf(e.normalizedUrl) }))),
    );
    const events = known.filter((e) => e.delivered || theirs.has(`${e.userId} ${hostOf(e.normalizedUrl)}`));
    if (events.length > 0) {
      const batchId = await batchIdOf(events.map((e) => e.id));
      await archiveEvents(env, archiveKey(batchId, Math.min(...events.map((e) => e.timestamp))), events);
      const { counters } = await recordAnalytics(env.DB, batchId, events);
      await markLimitChanges(env, customers, counters);
    }
    batch.ackAll();
  } catch (err) {
    console.error("Analytics batch failed; retrying", err);
    batch.retryAll({ delaySeconds: 5 });
    return;
  }
  // Upkeep that must keep pace with traffic; a failure here is retried by the next batch and the daily cron.
  await runIndependentSteps([
    ["Purging the raw analytics window", () => purgeRawWindow(env, new Date(), PURGE_ROWS_PER_BATCH)],
    ["Purging past days' visitor counts", () => purgeVisitorDays(env, new Date(), PURGE_ROWS_PER_BATCH)],
    ["Draining delivery repairs", () => drainRepairs(env, REPAIRS_PER_BATCH)],
  ]);
}
