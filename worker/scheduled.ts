/**
 * @module The daily cron: PayPal's view of our subscriptions (billing/reconcile.ts), then every billing period
 * that has ended and every paid plan that has lapsed (the sweeper behind the per-request settling), then
 * housekeeping of expired codes, tokens, keys and rate-limit rows, of sign-ups left unverified for a week, of login
 * attempts after 90 days and of website claims left unproven for a week.
 * And the minute cron: scheduled publishing (delivery/schedule.ts), then webhook events (webhooks/dispatch.ts), then
 * pending website claims checked again (websites/prove-website.ts) and Cloudflare for SaaS kept in step
 * (websites/custom-hostnames.ts).
 */
import { lt } from "drizzle-orm";
import { settleDueBilling } from "./billing/periods";
import { reconcileSubscriptions } from "./billing/reconcile";
import { createDb } from "./db/client";
import { loginOtpCodes, verificationTokens } from "./db/schema";
import type { Env } from "./env";
import { LONGEST_WINDOW_MS } from "./auth/throttle";
import { runDueSchedules } from "./delivery/schedule";
import { runHotPathHousekeeping } from "./housekeeping";
import { purgeExpiredKeys } from "./models/api-keys";
import { purgeDeletedMappings } from "./models/deleted-mappings";
import { LOGIN_ATTEMPT_TTL_MS, purgeLoginAttempts } from "./models/login-attempts";
import { purgeLapsedWebsites } from "./models/websites";
import { purgeRateLimitEvents } from "./models/rate-limits";
import { purgeUnverifiedSignups, UNVERIFIED_SIGNUP_TTL_MS } from "./models/users";
import { DELIVERY_LOG_TTL_MS, purgeDeliveries } from "./models/webhooks";
import { sendDueWebhooks } from "./webhooks/dispatch";
import { runIndependentSteps } from "./lib/independent-steps";
import { settleCustomHostnames } from "./websites/custom-hostnames";
import { recheckPendingWebsites } from "./websites/prove-website";

export async function runDaily(env: Env, now = new Date()): Promise<void> {
  try {
    await reconcileSubscriptions(env, now);
  } catch (err) {
    // The sweep below must run all the same: it ends the plans whose coverage is over.
    console.error("Reconciling subscriptions with PayPal failed", err);
  }
  await settleDueBilling(env, now);
  const db = createDb(env.DB);
  await db.batch([
    db.delete(verificationTokens).where(lt(verificationTokens.expiresAt, now)),
    db.delete(loginOtpCodes).where(lt(loginOtpCodes.expiresAt, now)),
  ]);
  await purgeExpiredKeys(db, now);
  await purgeRateLimitEvents(db, new Date(now.getTime() - LONGEST_WINDOW_MS));
  await purgeUnverifiedSignups(db, new Date(now.getTime() - UNVERIFIED_SIGNUP_TTL_MS));
  await purgeDeletedMappings(db, now);
  await purgeDeliveries(db, new Date(now.getTime() - DELIVERY_LOG_TTL_MS));
  await purgeLoginAttempts(db, new Date(now.getTime() - LOGIN_ATTEMPT_TTL_MS));
  await purgeLapsedWebsites(db, now);
  // Raw analytics past their window, legacy raw rows to R2, delivery store repairs.
  await runHotPathHousekeeping(env, now);
}

/** The minute cron's expression in wrangler.toml; any other is the daily one. */
export const EVERY_MINUTE = "* * * * *";

export async function runEveryMinute(env: Env, now = new Date()): Promise<void> {
  await runDueSchedules(env, now);
  await runIndependentSteps([
    // The webhook events due, those the schedules just wrote included (written at the real time, after `now`).
    ["Sending webhook events", () => sendDueWebhooks(env, new Date(Math.max(now.getTime(), Date.now())))],
    ["Checking pending website claims", () => recheckPendingWebsites(env, now)],
    ["Keeping Cloudflare for SaaS in step", () => settleCustomHostnames(env)],
  ]);
}
