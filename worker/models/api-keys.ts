/**
 * @module API keys: `dc_` + 32 random bytes, looked up by SHA-256 and kept AES-GCM encrypted so that the
 * dashboards and the resend mail can show a customer's key. Three kinds (see the schema): one `customer` key per
 * customer, valid until rotated or revoked; an `admin` key per password login, valid ADMIN_KEY_TTL_MS; an
 * `impersonation` key that lets an admin act as a customer for IMPERSONATION_KEY_TTL_MS.
 */
import { and, asc, eq, gt, lt, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { apiKeys, users, type ApiKeyKind, type User } from "../db/schema";
import { encryptSecret, openSecret, randomToken, sha256Hex, type SecretKeys } from "../lib/crypto";
import { resealColumn } from "../lib/reseal";

export const ADMIN_KEY_TTL_MS = 12 * 60 * 60 * 1000;
export const IMPERSONATION_KEY_TTL_MS = 60 * 60 * 1000;

interface NewKey {
  userId: string;
  kind: ApiKeyKind;
  impersonatorId?: string;
  expiresAt?: Date;
}

/** A fresh key and the row that stores it (not yet written). */
async function newKey(keys: SecretKeys, values: NewKey) {
  const key = `dc_${randomToken(32)}`;
  const row = { ...values, keyHash: await sha256Hex(key), keyEncrypted: await encryptSecret(keys.current, key) };
  return { key, row };
}

/** The customer's key, or null when they have none (email not verified yet, or the key was revoked). */
export async function getCustomerKey(db: Db, keys: SecretKeys, userId: string): Promise<string | null> {
  const row = await db.query.apiKeys.findFirst({
    where: and(eq(apiKeys.userId, userId), eq(apiKeys.kind, "customer")),
  });
  if (!row) return null;
  const { plaintext, stale } = await openSecret(keys, row.keyEncrypted);
  if (stale) await resealKey(db, keys, row.id, plaintext);
  return plaintext;
}

/** After a rotation of APP_SECRET: every stored key still under the previous secret, sealed again (lib/reseal.ts). */
export function resealAllKeys(db: Db, keys: SecretKeys, pageSize = 200) {
  return resealColumn<number>(
    keys,
    (after, limit) =>
      db
        .select({ id: apiKeys.id, sealed: apiKeys.keyEncrypted })
        .from(apiKeys)
        .where(after === undefined ? undefined : gt(apiKeys.id, after))
        .orderBy(asc(apiKeys.id))
        .limit(limit),
    (id, plaintext) => resealKey(db, keys, id, plaintext),
    pageSize,
  );
}

/** Seals a stored key again under the current APP_SECRET (after a rotation). */
export async function resealKey(db: Db, keys: SecretKeys, keyId: number, key: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ keyEncrypted: await encryptSecret(keys.current, key) })
    .where(eq(apiKeys.id, keyId));
}

/**
 * The customer's key, issuing one on first use (after the email is verified, or after a revocation). Two first uses
 * at once issue one key: the unique index keeps the first insert, and the other answers the key it kept.
 */
export async function ensureCustomerKey(db: Db, keys: SecretKeys, userId: string): Promise<string> {
  const existing = await getCustomerKey(db, keys, userId);
  if (existing) return existing;
  const { key, row } = await newKey(keys, { userId, kind: "customer" });
  const inserted = await db.insert(apiKeys).values(row).onConflictDoNothing().returning({ id: apiKeys.id });
  if (inserted.length > 0) return key;
  const kept = await getCustomerKey(db, keys, userId);
  if (!kept) throw new Error(`The customer key of ${userId} was revoked while it was issued`);
  return kept;
}

/** A key for one admin sign-in; the admin's expired keys are cleared on the way. */
export async function issueAdminKey(db: Db, keys: SecretKeys, adminId: string, now = Date.now()): Promise<string> {
  const { key, row } = await newKey(keys, {
    userId: adminId,
    kind: "admin",
    expiresAt: new Date(now + ADMIN_KEY_TTL_MS),
  });
  await db.batch([
    db.delete(apiKeys).where(and(eq(apiKeys.userId, adminId), lt(apiKeys.expiresAt, new Date(now)))),
    db.insert(apiKeys).values(row),
  ]);
  return key;
}

/**
 * A new key for the user, the old ones void in the same batch: a customer's one key, or every sign-in of an admin
 * (the new key starts a fresh admin session).
 */
export async function rotateOwnKey(db: Db, keys: SecretKeys, user: User, now = Date.now()): Promise<string> {
  const kind: ApiKeyKind = user.role === "admin" ? "admin" : "customer";
  const expiresAt = kind === "admin" ? new Date(now + ADMIN_KEY_TTL_MS) : undefined;
  const { key, row } = await newKey(keys, { userId: user.id, kind, expiresAt });
  await db.batch([
    db.delete(apiKeys).where(and(eq(apiKeys.userId, user.id), eq(apiKeys.kind, kind))),
    db.insert(apiKeys).values(row),
  ]);
  return key;
}

/** Voids every key that acts as the customer: their own and any admin's impersonation of them. */
export async function revokeCustomerKeys(db: Db, userId: string): Promise<void> {
  await db.delete(apiKeys).where(and(eq(apiKeys.userId, userId), ne(apiKeys.kind, "admin")));
}

/** A short-lived key with which the admin acts as the customer; it names the admin. */
export async function issueImpersonationKey(
  db: Db,
  keys: SecretKeys,
  adminId: string,
  userId: string,
  now = Date.now(),
): Promise<{ apiKey: string; expiresAt: Date }> {
  const expiresAt = new Date(now + IMPERSONATION_KEY_TTL_MS);
  const { key, row } = await newKey(keys, { userId, kind: "impersonation", impersonatorId: adminId, expiresAt });
  await db.insert(apiKeys).values(row);
  return { apiKey: key, expiresAt };
}

export interface KeySession {
  user: User;
  keyId: number;
  kind: ApiKeyKind;
  lastUsedAt: Date | null;
  /** The admin acting as `user` (impersonation keys). */
  impersonator: { id: string; email: string } | null;
}

const impersonators = alias(users, "impersonator");

/**
 * Who a presented key speaks for: the session, "expired", or undefined for no valid key. An admin is admitted
 * only by an admin key and a customer never by one (so an account made admin later cannot use its old customer
 * key as an admin's), and an impersonation key only while its admin is still an active admin.
 */
export async function findKeySession(
  db: Db,
  key: string,
  now = Date.now(),
): Promise<KeySession | "expired" | undefined> {
  const [row] = await db
    .select({
      user: users,
      keyId: apiKeys.id,
      kind: apiKeys.kind,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      impersonator: {
        id: impersonators.id,
        email: impersonators.email,
        role: impersonators.role,
        isActive: impersonators.isActive,
      },
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(impersonators, eq(impersonators.id, apiKeys.impersonatorId))
    .where(eq(apiKeys.keyHash, await sha256Hex(key)))
    .limit(1);
  if (!row) return undefined;
  if ((row.user.role === "admin") !== (row.kind === "admin")) return undefined;
  if (row.kind === "impersonation" && !(row.impersonator?.role === "admin" && row.impersonator.isActive))
    return undefined;
  if (row.expiresAt && row.expiresAt.getTime() <= now) return "expired";
  return {
    user: row.user,
    keyId: row.keyId,
    kind: row.kind,
    lastUsedAt: row.lastUsedAt,
    impersonator:
      row.kind === "impersonation" && row.impersonator
        ? { id: row.impersonator.id, email: row.impersonator.email }
        : null,
  };
}

const LAST_USED_PRECISION_MS = 60 * 60 * 1000;

/** Records when a key was used, at most once an hour, so that use costs no write per request. */
export async function touchApiKey(db: Db, keyId: number, lastUsedAt: Date | null, now = new Date()) {
  if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return;
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId));
}

/** The daily housekeeping: keys past their expiry are of no use to anyone. */
export async function purgeExpiredKeys(db: Db, now = new Date()): Promise<void> {
  await db.delete(apiKeys).where(lt(apiKeys.expiresAt, now));
}
