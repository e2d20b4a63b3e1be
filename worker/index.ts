/** @module The Worker: the Hono app, the analytics queue consumer and the daily cron. */
import { consumeAnalytics } from "./analytics/consumer";
import { app } from "./app";
import type { Env } from "./env";
import { runDaily } from "./scheduled";

export default {
  fetch: app.fetch,
  queue: consumeAnalytics,
  scheduled: async (_controller, env, ctx) => {
    ctx.waitUntil(runDaily(env));
  },
} satisfies ExportedHandler<Env, import("./analytics/message").AnalyticsMessage>;
