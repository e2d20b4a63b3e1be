/** @module Users: customers and admins. */
import { addMonths } from "date-fns";
import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { users, type User } from "../db/schema";
import { newUserId } from "../lib/ids";
import { getDefaultProductVersion } from "./product-versions";

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db.query.users.findFirst({ where: eq(users.email, email.toLowerCase()) });
}

export async function getUser(db: Db, id: string): Promise<User | undefined> {
  return db.query.users.findFirst({ where: eq(users.id, id) });
}

/**
 * The account with this address, creating it as a new customer on the default product version (unverified until
 * the link is followed) when there is none. Two parallel sign-ups of one address make one account.
 */
export async function ensureCustomer(db: Db, email: string): Promise<User> {
  const normalized = email.toLowerCase();
  const existing = await findUserByEmail(db, normalized);
  if (existing) return existing;
  const version = await getDefaultProductVersion(db);
  await db
    .insert(users)
    .values({ id: newUserId(), email: normalized, productVersionId: version?.id ?? null })
    .onConflictDoNothing({ target: users.email });
  return (await findUserByEmail(db, normalized))!;
}

/** Marks the email verified; the first verification also starts the first billing period. */
export async function markEmailVerified(db: Db, user: User, now = new Date()): Promise<void> {
  const start = user.billingPeriodStart ?? now;
  const end = user.billingPeriodEnd ?? addMonths(start, 1);
  await db
    .update(users)
    .set({ emailVerified: true, billingPeriodStart: start, billingPeriodEnd: end })
    .where(eq(users.id, user.id));
}

/** Creates the admin, or makes the existing account an admin with this password. */
export async function upsertAdmin(db: Db, email: string, passwordHash: string): Promise<void> {
  const normalized = email.toLowerCase();
  await db
    .insert(users)
    .values({ id: newUserId(), email: normalized, role: "admin", emailVerified: true, passwordHash })
    .onConflictDoUpdate({ target: users.email, set: { role: "admin", emailVerified: true, passwordHash } });
}

/** Applies an admin's change to one user; answers false when there is no such user. */
export async function updateUser(
  db: Db,
  id: string,
  change: Partial<
    Pick<
      User,
      | "isActive"
      | "requestLimit"
      | "websitesLimit"
      | "dynamicContentLimit"
      | "email"
      | "productVersionId"
      | "planSource"
      | "planPaidThrough"
      | "ignoredParameters"
    >
  >,
): Promise<boolean> {
  const updated = await db.update(users).set(change).where(eq(users.id, id)).returning({ id: users.id });
  return updated.length > 0;
}

/** Deletes the user; the foreign keys delete every row of theirs in the same statement. */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return deleted.length > 0;
}

/** Marks whether the delivery store holds every published URL of the customer (a rebuild clears it while it runs). */
export async function setDeliveryStoreComplete(db: Db, id: string, complete: boolean): Promise<void> {
  await db.update(users).set({ deliveryStoreComplete: complete }).where(eq(users.id, id));
}

/**
 * A new content version for the customer after their URL entries were written (delivery/sync.ts): the time now, or
 * one more than the last when the clock has not moved on, so that a version is never used twice.
 */
export async function bumpContentVersion(db: Db, id: string, now = Date.now()): Promise<void> {
  await db
    .update(users)
    .set({ contentVersion: sql`max(${users.contentVersion} + 1, ${now})` })
    .where(eq(users.id, id));
}

/** One page of user ids after `afterId`, in id order (a rebuild of every customer walks them). */
export async function userIdsPage(db: Db, afterId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(gt(users.id, afterId))
    .orderBy(asc(users.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** How long a sign-up may stay unverified before the daily cron deletes it (docs/decisions.md, "Identity"). */
export const UNVERIFIED_SIGNUP_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes customers who never verified their email and signed up before `before`, at most `limit` per call
 * (oldest first, over `users_created_idx`); their tokens and codes go with them. Answers how many went.
 */
export async function purgeUnverifiedSignups(db: Db, before: Date, limit = 1_000): Promise<number> {
  const stale = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "user"), eq(users.emailVerified, false), lt(users.createdAt, before)))
    .orderBy(asc(users.createdAt))
    .limit(limit);
  const deleted = await db.delete(users).where(inArray(users.id, stale)).returning({ id: users.id });
  return deleted.length;
}
