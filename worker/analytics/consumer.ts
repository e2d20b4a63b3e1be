/**
 * @module The queue consumer: ended billing periods of the batch's customers are moved on, then one D1 batch for
 * the whole message batch, then the delivery documents of customers who reached a limit are marked. If anything
 * fails, every message is retried; the message id keeps a retried one from being counted twice.
 */
import { settleDueBilling } from "../billing/periods";
import { refreshLimitStates } from "../delivery/document";
import type { Env } from "../env";
import type { AnalyticsMessage } from "./message";
import { recordAnalytics } from "./record";

export async function consumeAnalytics(batch: MessageBatch<AnalyticsMessage>, env: Env): Promise<void> {
  try {
    const messages = batch.messages.map((m) => m.body);
    const userIds = [...new Set(messages.map((m) => m.userId))];
    // Counted into the current period: one that has ended is moved on first (fresh counters, no longer limited).
    await settleDueBilling(env, new Date(), userIds);
    await recordAnalytics(env.DB, messages);
    await refreshLimitStates(env, userIds);
    batch.ackAll();
  } catch (err) {
    console.error("Analytics batch failed; retrying", err);
    batch.retryAll({ delaySeconds: 5 });
  }
}
