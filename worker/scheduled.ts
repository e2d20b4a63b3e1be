/** @module The daily cron: billing periods, then housekeeping of expired codes, tokens, keys and rate-limit rows. */
import { lt } from "drizzle-orm";
import { advanceBillingPeriods } from "./billing/periods";
import { createDb } from "./db/client";
import { loginOtpCodes, verificationTokens } from "./db/schema";
import type { Env } from "./env";
import { LONGEST_WINDOW_MS } from "./auth/throttle";
import { purgeExpiredKeys } from "./models/api-keys";
import { purgeRateLimitEvents } from "./models/rate-limits";

export async function runDaily(env: Env, now = new Date()): Promise<void> {
  await advanceBillingPeriods(env, now);
  const db = createDb(env.DB);
  await db.batch([
    db.delete(verificationTokens).where(lt(verificationTokens.expiresAt, now)),
    db.delete(loginOtpCodes).where(lt(loginOtpCodes.expiresAt, now)),
  ]);
  await purgeExpiredKeys(db, now);
  await purgeRateLimitEvents(db, new Date(now.getTime() - LONGEST_WINDOW_MS));
}
