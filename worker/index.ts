/**
 * @module The Worker: the Hono app, the analytics and delivery queue consumers, the daily and minute crons, and the
 * page view relay and the analytics reducers (Durable Objects).
 */
import { consumeAnalytics } from "./analytics/consumer";
import { app } from "./app";
import { consumeDeliverySyncs } from "./delivery/repairs";
import type { Env } from "./env";
import { ANALYTICS_DEAD_LETTER_QUEUE_NAME, ANALYTICS_QUEUE_NAME, type AnalyticsMessage } from "./messages/analytics";
import { DELIVERY_QUEUE_NAME, type DeliverySyncMessage } from "./messages/delivery-sync";
import { EVERY_MINUTE, runDaily, runEveryMinute } from "./scheduled";

/** The Durable Object classes wrangler.toml binds. */
export { PageViewRelay } from "./delivery/page-view-relay";
export { AnalyticsReducer } from "./analytics/reducer";

type QueueMessage = AnalyticsMessage | DeliverySyncMessage;

/** Each queue's consumer, by the queue's name in wrangler.toml. */
const consumers: Record<string, (batch: MessageBatch<QueueMessage>, env: Env) => Promise<void>> = {
  [ANALYTICS_QUEUE_NAME]: (batch, env) => consumeAnalytics(batch as MessageBatch<AnalyticsMessage>, env),
  [ANALYTICS_DEAD_LETTER_QUEUE_NAME]: (batch, env) => consumeAnalytics(batch as MessageBatch<AnalyticsMessage>, env),
  [DELIVERY_QUEUE_NAME]: (batch, env) => consumeDeliverySyncs(batch as MessageBatch<DeliverySyncMessage>, env),
};

export default {
  fetch: app.fetch,
  queue: (batch, env) => {
    const consume = consumers[batch.queue];
    // Unacknowledged, the batch is retried and then waits in the dead-letter queue: nothing is lost.
    if (!consume) throw new Error(`No consumer for the queue ${batch.queue}`);
    return consume(batch, env);
  },
  scheduled: async (controller, env, ctx) => {
    ctx.waitUntil(controller.cron === EVERY_MINUTE ? runEveryMinute(env) : runDaily(env));
  },
} satisfies ExportedHandler<Env, QueueMessage>;
