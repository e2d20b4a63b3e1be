/**
 * @module The daily cron: PayPal's view of our subscriptions (billing/reconcile.ts), then every billing period
 * that has ended and every paid plan that has lapsed (the sweeper behind the per-request settling), then
 * housekeeping of expired codes, tokens, keys and rate-limit rows, of sign-ups left unverified for a week, of login
 * attempts after 90 days and of website claims left unproven for a week, then the hot path's share: raw analytics
 * past their window, visitors' old goals and those of visitors never exposed, the rows of experiments ended 90 days
 * ago, legacy raw rows to R2, and delivery store repairs the minute crons have not carried out yet (each bounded; a
 * failing one is logged without stopping the others).
 * And the minute cron: the pending page views folded into the counters (analytics/fold.ts) and per-URL days past
 * 13 months summed into months (analytics/url-months.ts), the rows of unmapped URLs not seen for 30 days purged
 * (analytics/url-retention.ts), scheduled publishing
 * (delivery/publish-due.ts), then webhook events (webhooks/dispatch.ts), then
 * pending website claims checked again (websites/prove-website.ts), proven ones once a day
 * (websites/recheck-websites.ts), Cloudflare for SaaS kept in step
 * (websites/custom-hostnames.ts), the oldest delivery store repairs carried out (delivery/repairs.ts), and the
 * delivery change feed's rows past two hours purged (delivery/change-feed.ts).
 */
import { foldPendingAnalytics } from "./analytics/fold";
import { rollUpOldUrlDays } from "./analytics/url-months";
import { purgeUnseenUrls } from "./analytics/url-retention";
import {
  archiveLegacyRows,
  purgeEndedExperiments,
  purgeRawWindow,
  purgeUnexposedGoals,
  purgeVisitorGoals,
} from "./analytics/retention";
import { settleDueBilling } from "./billing/periods";
import { reconcileSubscriptions } from "./billing/reconcile";
import { createDb } from "./db/client";
import type { Env } from "./env";
import { LONGEST_WINDOW_MS } from "./auth/throttle";
import { runDueSchedules } from "./delivery/publish-due";
import { purgeChangeFeed } from "./delivery/change-feed";
import { drainRepairs, REPAIRS_PER_CRON, REPAIRS_PER_MINUTE } from "./delivery/repairs";
import { purgeExpiredKeys } from "./models/api-keys";
import { purgeDeletedMappings } from "./models/deleted-mappings";
import { LOGIN_ATTEMPT_TTL_MS, purgeLoginAttempts } from "./models/login-attempts";
import { purgeExpiredLoginCodes } from "./models/login-codes";
import { purgeLapsedWebsites } from "./models/websites";
import { purgePlacementHealth } from "./models/placement-health";
import { purgeRateLimitEvents } from "./models/rate-limits";
import { purgeUnverifiedSignups, UNVERIFIED_SIGNUP_TTL_MS } from "./models/users";
import { purgeExpiredVerificationTokens } from "./models/verification-tokens";
import { DELIVERY_LOG_TTL_MS, purgeDeliveries } from "./models/webhooks";
import { sendDueWebhooks } from "./webhooks/dispatch";
import { runIndependentSteps } from "./lib/independent-steps";
import { settleCustomHostnames } from "./websites/custom-hostnames";
import { recheckPendingWebsites } from "./websites/prove-website";
import { recheckActiveWebsites } from "./websites/recheck-websites";

export async function runDaily(env: Env, now = new Date()): Promise<void> {
  try {
    await reconcileSubscriptions(env, now);
  } catch (err) {
    // The sweep below must run all the same: it ends the plans whose coverage is over.
    console.error("Reconciling subscriptions with PayPal failed", err);
  }
  await settleDueBilling(env, now);
  const db = createDb(env.DB);
  await purgeExpiredVerificationTokens(db, now);
  await purgeExpiredLoginCodes(db, now);
  await purgeExpiredKeys(db, now);
  await purgeRateLimitEvents(db, new Date(now.getTime() - LONGEST_WINDOW_MS));
  await purgeUnverifiedSignups(db, new Date(now.getTime() - UNVERIFIED_SIGNUP_TTL_MS));
  await purgeDeletedMappings(db, now);
  await purgeDeliveries(db, new Date(now.getTime() - DELIVERY_LOG_TTL_MS));
  await purgeLoginAttempts(db, new Date(now.getTime() - LOGIN_ATTEMPT_TTL_MS));
  await purgeLapsedWebsites(db, now);
  await runIndependentSteps([
    ["Purging the raw analytics window", () => purgeRawWindow(env, now)],
    ["Purging visitors' old goals", () => purgeVisitorGoals(env, now)],
    ["Purging goals of visitors never exposed", () => purgeUnexposedGoals(env, now)],
    ["Purging ended experiments' rows", () => purgeEndedExperiments(env, now)],
    ["Purging selector health past its 7 days", () => purgePlacementHealth(db, now)],
    ["Archiving legacy analytics rows", () => archiveLegacyRows(env)],
    ["Draining delivery repairs", () => drainRepairs(env, REPAIRS_PER_CRON)],
  ]);
}

/** The minute cron's expression in wrangler.toml; any other is the daily one. */
export const EVERY_MINUTE = "* * * * *";

export async function runEveryMinute(env: Env, now = new Date()): Promise<void> {
  await runIndependentSteps([
    ["Folding pending page views into the counters", () => foldPendingAnalytics(env, now)],
    ["Summing old per-URL days into months", () => rollUpOldUrlDays(env, now)],
    ["Purging the rows of unmapped URLs not seen for 30 days", () => purgeUnseenUrls(env, now)],
  ]);
  await runDueSchedules(env, now);
  await runIndependentSteps([
    // The webhook events due, those the schedules just wrote included (written at the real time, after `now`).
    ["Sending webhook events", () => sendDueWebhooks(env, new Date(Math.max(now.getTime(), Date.now())))],
    ["Checking pending website claims", () => recheckPendingWebsites(env, now)],
    ["Checking proven websites' proofs again", () => recheckActiveWebsites(env, now)],
    ["Keeping Cloudflare for SaaS in step", () => settleCustomHostnames(env)],
    ["Draining delivery repairs", () => drainRepairs(env, REPAIRS_PER_MINUTE)],
    ["Purging the delivery change feed's old rows", () => purgeChangeFeed(env, now)],
  ]);
}
