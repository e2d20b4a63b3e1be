/** @module The daily cron: housekeeping. Billing-period resets come with the plans and limits. */
import { lt } from "drizzle-orm";
import { createDb } from "./db/client";
import { loginOtpCodes, verificationTokens } from "./db/schema";
import type { Env } from "./env";

export async function runDailyMaintenance(env: Env, now = new Date()): Promise<void> {
  const db = createDb(env.DB);
  await db.batch([
    db.delete(verificationTokens).where(lt(verificationTokens.expiresAt, now)),
    db.delete(loginOtpCodes).where(lt(loginOtpCodes.expiresAt, now)),
  ]);
}
