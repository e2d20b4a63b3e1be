/**
 * @module The queue consumer: one D1 batch for the whole message batch. If the batch fails, every message is
 * retried; the message id keeps a retried one from being counted twice.
 */
import type { Env } from "../env";
import type { AnalyticsMessage } from "./message";
import { recordAnalytics } from "./record";

export async function consumeAnalytics(batch: MessageBatch<AnalyticsMessage>, env: Env): Promise<void> {
  try {
    await recordAnalytics(
      env.DB,
      batch.messages.map((m) => m.body),
    );
    batch.ackAll();
  } catch (err) {
    console.error("Analytics batch failed; retrying", err);
    batch.retryAll({ delaySeconds: 5 });
  }
}
