/** @module Email verification tokens: random, stored hashed, valid 24 hours, single use. */
import { eq, lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { verificationTokens } from "../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

/** A sign-in link (sent after too many wrong login codes) is the same kind of token with a shorter life. */
export const SIGN_IN_LINK_TTL_MS = 60 * 60 * 1000;

export async function createVerificationToken(
  db: Db,
  userId: string,
  now = Date.now(),
  ttlMs = VERIFICATION_TTL_MS,
): Promise<string> {
  const token = randomToken(32);
  await db.insert(verificationTokens).values({
    token: await sha256Hex(token),
    userId,
    expiresAt: new Date(now + ttlMs),
  });
  return token;
}

/** Deletes the token and answers its user id, or null when it is unknown, used or expired. */
export async function consumeVerificationToken(db: Db, token: string, now = Date.now()): Promise<string | null> {
  const [row] = await db
    .delete(verificationTokens)
    .where(eq(verificationTokens.token, await sha256Hex(token)))
    .returning();
  if (!row || row.expiresAt.getTime() <= now) return null;
  return row.userId;
}

/** Deletes the tokens expired before `now` (the daily cron). */
export async function purgeExpiredVerificationTokens(db: Db, now: Date): Promise<void> {
  await db.delete(verificationTokens).where(lt(verificationTokens.expiresAt, now));
}
