/**
 * @module Sends a customer's webhook events right after their own change to a mapping, so that they arrive within
 * seconds rather than at the next minute cron. Middleware of the mapping routes (routes/mappings.ts); the triggers
 * of db/raw.ts have written the events in the change's own transaction, and this only sends them, after the answer.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { inBackground } from "../http/background";
import { takeRateLimits, type RateLimit } from "../models/rate-limits";
import { CONCURRENCY, sendDue } from "./dispatch";

const CHANGES = new Set(["POST", "PATCH", "PUT", "DELETE"]);
/**
 * One change's events to every webhook (at most 10), in two rounds of attempts: at most 20 s of timeouts, within the
 * 30 s that `waitUntil` gives after the answer. More (an import's) are the cron's.
 */
const AFTER_CHANGE_LIMIT = 2 * CONCURRENCY;
/**
 * The events of this request are due from its start on (the triggers set their due time to D1's clock when they
 * write them); a minute earlier allows for the two clocks. Older ones are the cron's, so that a change never walks
 * a backlog.
 */
const CLOCK_SLACK_MS = 60_000;

/**
 * Changes per customer a minute whose events are sent at once; the events of more (a burst of toggles, P-10) stay
 * pending for the minute cron, which sends one customer's at PER_ACCOUNT_PER_BATCH a batch.
 */
export const IMMEDIATE_SENDS: Omit<RateLimit, "bucket"> = { max: 3, windowMs: 60_000 };

export const sendWebhooksAfterChange = createMiddleware<AppEnv>(async (c, next) => {
  const dueSince = new Date(Date.now() - CLOCK_SLACK_MS);
  await next();
  const user = c.get("user");
  if (!user || !CHANGES.has(c.req.method) || c.res.status < 200 || c.res.status >= 300) return;
  inBackground(c, "Sending webhooks", async () => {
    const budget = { bucket: `webhook-send:account:${user.id}`, ...IMMEDIATE_SENDS };
    if (!(await takeRateLimits(c.var.db, [budget])).allowed) return;
    await sendDue(c.env, { userId: user.id, dueSince, limit: AFTER_CHANGE_LIMIT });
  });
});
