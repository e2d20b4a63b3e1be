/** @module PayPal subscriptions of our customers, one row per PayPal subscription id. */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { subscriptions } from "../db/schema";

export async function findSubscription(db: Db, subscriptionId: string) {
  return db.query.subscriptions.findFirst({ where: eq(subscriptions.subscriptionId, subscriptionId) });
}

/** Stores the subscription once; answers the stored row (which may belong to someone else). */
export async function storeSubscription(
  db: Db,
  values: { userId: string; subscriptionId: string; planId: string | null; status: string },
) {
  await db
    .insert(subscriptions)
    .values({ ...values, updatedAt: new Date() })
    .onConflictDoNothing({ target: subscriptions.subscriptionId });
  return (await findSubscription(db, values.subscriptionId))!;
}

export async function cancelSubscription(db: Db, subscriptionId: string) {
  await db
    .update(subscriptions)
    .set({ status: "cancelled", updatedAt: new Date() })
    .where(eq(subscriptions.subscriptionId, subscriptionId));
}

export async function hasActiveSubscription(db: Db, userId: string): Promise<boolean> {
  const row = await db.query.subscriptions.findFirst({
    where: and(eq(subscriptions.userId, userId), eq(subscriptions.status, "active")),
  });
  return row !== undefined;
}

export async function hasAnySubscription(db: Db, userId: string): Promise<boolean> {
  return (await db.query.subscriptions.findFirst({ where: eq(subscriptions.userId, userId) })) !== undefined;
}
