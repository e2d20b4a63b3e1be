/** @module The Worker: the Hono app, the analytics and delivery queue consumers, and the daily and minute crons. */
import { consumeAnalytics } from "./analytics/consumer";
import type { AnalyticsMessage } from "./analytics/message";
import { app } from "./app";
import { consumeDeliverySyncs, type DeliverySyncMessage } from "./delivery/repairs";
import type { Env } from "./env";
import { EVERY_MINUTE, runDaily, runEveryMinute } from "./scheduled";

/** The delivery queue's name in wrangler.toml; every other batch is analytics. */
const DELIVERY_QUEUE = "dynamic-content-delivery";

export default {
  fetch: app.fetch,
  queue: (batch, env) =>
    batch.queue === DELIVERY_QUEUE
      ? consumeDeliverySyncs(batch as MessageBatch<DeliverySyncMessage>, env)
      : consumeAnalytics(batch as MessageBatch<AnalyticsMessage>, env),
  scheduled: async (controller, env, ctx) => {
    ctx.waitUntil(controller.cron === EVERY_MINUTE ? runEveryMinute(env) : runDaily(env));
  },
} satisfies ExportedHandler<Env, AnalyticsMessage | DeliverySyncMessage>;
