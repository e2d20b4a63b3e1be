/**
 * @module Login codes: 5 digits from a CSPRNG, stored as an HMAC, valid 10 minutes, single use, five tries.
 * A new code replaces the user's earlier ones.
 */
import { and, desc, eq, gt, lt, sql } from "drizzle-orm";
import { LOGIN_CODE_DIGITS } from "#contract/input-caps";
import type { Db } from "../db/client";
import { loginOtpCodes } from "../db/schema";
import { sha256Hex } from "../lib/crypto";

export const LOGIN_CODE_TTL_MS = 10 * 60 * 1000;
export const LOGIN_CODE_MAX_TRIES = 5;

const CODES = 10 ** LOGIN_CODE_DIGITS;

/** A uniformly random code of `LOGIN_CODE_DIGITS` digits (rejection sampling keeps every code equally likely). */
export function randomLoginCode(): string {
  const limit = Math.floor(0x1_0000_0000 / CODES) * CODES;
  const buf = new Uint32Array(1);
  do crypto.getRandomValues(buf);
  while (buf[0]! >= limit);
  return String(buf[0]! % CODES).padStart(LOGIN_CODE_DIGITS, "0");
}

const codeHash = (secret: string, userId: string, code: string) => sha256Hex(`${secret}:login:${userId}:${code}`);

export async function issueLoginCode(db: Db, secret: string, userId: string, now = Date.now()): Promise<string> {
  const code = randomLoginCode();
  await db.batch([
    db
      .update(loginOtpCodes)
      .set({ used: true })
      .where(and(eq(loginOtpCodes.userId, userId), eq(loginOtpCodes.used, false))),
    db.insert(loginOtpCodes).values({
      userId,
      code: await codeHash(secret, userId, code),
      expiresAt: new Date(now + LOGIN_CODE_TTL_MS),
      createdAt: new Date(now),
    }),
  ]);
  return code;
}

export type CodeCheck = "ok" | "invalid" | "expired" | "exhausted";

/**
 * Checks a code against the user's current one. Every try first takes one of the code's five tries in a single
 * conditional UPDATE, so parallel guesses cannot get more than five between them.
 */
export async function checkLoginCode(
  db: Db,
  secret: string,
  userId: string,
  code: string,
  now = Date.now(),
): Promise<CodeCheck> {
  const current = await db.query.loginOtpCodes.findFirst({
    where: and(
      eq(loginOtpCodes.userId, userId),
      eq(loginOtpCodes.used, false),
      gt(loginOtpCodes.expiresAt, new Date(now)),
    ),
    orderBy: desc(loginOtpCodes.id),
  });
  if (!current) return "expired";
  const [taken] = await db
    .update(loginOtpCodes)
    .set({ attempts: sql`${loginOtpCodes.attempts} + 1` })
    .where(
      and(
        eq(loginOtpCodes.id, current.id),
        eq(loginOtpCodes.used, false),
        sql`${loginOtpCodes.attempts} < ${LOGIN_CODE_MAX_TRIES}`,
      ),
    )
    .returning({ attempts: loginOtpCodes.attempts });
  if (!taken) return "exhausted";
  if ((await codeHash(secret, userId, code)) !== current.code) {
    return taken.attempts >= LOGIN_CODE_MAX_TRIES ? "exhausted" : "invalid";
  }
  const [used] = await db
    .update(loginOtpCodes)
    .set({ used: true })
    .where(and(eq(loginOtpCodes.id, current.id), eq(loginOtpCodes.used, false)))
    .returning({ id: loginOtpCodes.id });
  return used ? "ok" : "expired";
}

/** Deletes the codes expired before `now` (the daily cron). */
export async function purgeExpiredLoginCodes(db: Db, now: Date): Promise<void> {
  await db.delete(loginOtpCodes).where(lt(loginOtpCodes.expiresAt, now));
}
