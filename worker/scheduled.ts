/** @module The daily cron: billing periods, then housekeeping of expired codes, tokens and rate-limit rows. */
import { lt } from "drizzle-orm";
import { advanceBillingPeriods } from "./billing/periods";
import { createDb } from "./db/client";
import { loginOtpCodes, verificationTokens } from "./db/schema";
import type { Env } from "./env";
import { purgeRateLimitEvents } from "./models/rate-limits";

const DAY_MS = 86_400_000;

export async function runDaily(env: Env, now = new Date()): Promise<void> {
  await advanceBillingPeriods(env, now);
  const db = createDb(env.DB);
  await db.batch([
    db.delete(verificationTokens).where(lt(verificationTokens.expiresAt, now)),
    db.delete(loginOtpCodes).where(lt(loginOtpCodes.expiresAt, now)),
  ]);
  await purgeRateLimitEvents(db, new Date(now.getTime() - DAY_MS));
}
