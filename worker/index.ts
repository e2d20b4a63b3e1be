/** @module The Worker: the Hono app, the analytics queue consumer, and the daily and minute crons. */
import { consumeAnalytics } from "./analytics/consumer";
import { app } from "./app";
import type { Env } from "./env";
import { EVERY_MINUTE, runDaily, runEveryMinute } from "./scheduled";

export default {
  fetch: app.fetch,
  queue: consumeAnalytics,
  scheduled: async (controller, env, ctx) => {
    ctx.waitUntil(controller.cron === EVERY_MINUTE ? runEveryMinute(env) : runDaily(env));
  },
} satisfies ExportedHandler<Env, import("./analytics/message").AnalyticsMessage>;
