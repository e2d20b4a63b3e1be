/**
 * @module The daily cron: PayPal's view of our subscriptions (billing/reconcile.ts), then every billing period
 * that has ended and every paid plan that has lapsed (the sweeper behind the per-request settling), then
 * housekeeping of expired codes, tokens and rate-limit rows.
 */
import { lt } from "drizzle-orm";
import { settleDueBilling } from "./billing/periods";
import { reconcileSubscriptions } from "./billing/reconcile";
import { createDb } from "./db/client";
import { loginOtpCodes, verificationTokens } from "./db/schema";
import type { Env } from "./env";
import { purgeRateLimitEvents } from "./models/rate-limits";

const DAY_MS = 86_400_000;

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
  await purgeRateLimitEvents(db, new Date(now.getTime() - DAY_MS));
}
