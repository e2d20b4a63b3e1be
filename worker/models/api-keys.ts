/**
 * @module API keys: 32 random bytes, looked up by SHA-256 and kept AES-GCM encrypted so that the dashboards
 * and the resend mail can show the key itself. One key per user.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, users } from "../db/schema";
import { decryptSecret, encryptSecret, randomToken, sha256Hex } from "../lib/crypto";

/** The user's key, issuing one on first use. */
export async function ensureApiKey(db: Db, secret: string, userId: string): Promise<string> {
  const existing = await getApiKey(db, secret, userId);
  if (existing) return existing;
  const key = `dc_${randomToken(32)}`;
  await db.insert(apiKeys).values({
    keyHash: await sha256Hex(key),
    keyEncrypted: await encryptSecret(secret, key),
    userId,
  });
  return key;
}

export async function getApiKey(db: Db, secret: string, userId: string): Promise<string | null> {
  const row = await db.query.apiKeys.findFirst({ where: eq(apiKeys.userId, userId) });
  return row ? decryptSecret(secret, row.keyEncrypted) : null;
}

export async function findUserByApiKey(db: Db, key: string) {
  const [row] = await db
    .select({ user: users, keyId: apiKeys.id, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, await sha256Hex(key)))
    .limit(1);
  return row;
}

const LAST_USED_PRECISION_MS = 60 * 60 * 1000;

/** Records when a key was used, at most once an hour, so that use costs no write per request. */
export async function touchApiKey(db: Db, keyId: number, lastUsedAt: Date | null, now = new Date()) {
  if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return;
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId));
}
