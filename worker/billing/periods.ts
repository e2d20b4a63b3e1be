/**
 * @module Billing periods: monthly, from the first payment (or the email verification on the default plan).
 * The daily cron moves every ended period on, records the reset, and starts fresh period counters. Workers run
 * in UTC, so date-fns' calendar months are UTC months (Jan 31 + 1 month = the last day of February).
 */
import { addMonths } from "date-fns";
import { and, eq, isNotNull, lte } from "drizzle-orm";
import { createDb, type Db } from "../db/client";
import { billingPeriodResets, usageCounters, users } from "../db/schema";
import { writeDocument } from "../delivery/document";
import type { Env } from "../env";
import { getDefaultProductVersion } from "../models/product-versions";
import { hasActiveSubscription, hasAnySubscription } from "../models/subscriptions";

const BATCH = 100;

/** The first period that contains `now`, following on from `end`. */
export function nextPeriod(end: Date, now: Date): { start: Date; end: Date } {
  let start = end;
  let next = addMonths(start, 1);
  while (next.getTime() <= now.getTime()) {
    start = next;
    next = addMonths(start, 1);
  }
  return { start, end: next };
}

/**
 * Starts a billing period: the user's period dates, a `billing_period_resets` row, fresh period counters, and
 * optionally another plan, in one batch. The caller rewrites the delivery document.
 */
export async function startBillingPeriod(
  db: Db,
  userId: string,
  period: { start: Date; end: Date },
  productVersionId?: number | null,
) {
  await db.batch([
    db
      .update(users)
      .set({
        billingPeriodStart: period.start,
        billingPeriodEnd: period.end,
        ...(productVersionId !== undefined ? { productVersionId } : {}),
      })
      .where(eq(users.id, userId)),
    db.insert(billingPeriodResets).values({ userId, resetDate: period.start }).onConflictDoNothing(),
    db.update(usageCounters).set({ periodRequests: 0, periodDeliveries: 0 }).where(eq(usageCounters.userId, userId)),
  ]);
}

/** A customer whose subscriptions have all been cancelled falls back to the default plan when the period ends. */
async function planAfterPeriod(db: Db, userId: string): Promise<number | undefined> {
  if (!(await hasAnySubscription(db, userId)) || (await hasActiveSubscription(db, userId))) return undefined;
  return (await getDefaultProductVersion(db))?.id;
}

/** Moves every ended billing period on. Running it again changes nothing until another period ends. */
export async function advanceBillingPeriods(env: Env, now = new Date()): Promise<number> {
  const db = createDb(env.DB);
  let advanced = 0;
  for (;;) {
    const ended = await db
      .select({ id: users.id, billingPeriodEnd: users.billingPeriodEnd })
      .from(users)
      .where(and(isNotNull(users.billingPeriodEnd), lte(users.billingPeriodEnd, now)))
      .limit(BATCH);
    if (ended.length === 0) return advanced;
    for (const user of ended) {
      await startBillingPeriod(
        db,
        user.id,
        nextPeriod(user.billingPeriodEnd!, now),
        await planAfterPeriod(db, user.id),
      );
      await writeDocument(env, user.id);
      advanced++;
    }
  }
}
