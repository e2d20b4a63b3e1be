/**
 * @module Billing periods: monthly, from the first payment (or the email verification on the default plan).
 * `settleBilling` is the one function that brings a customer's billing up to a moment: it moves an ended period
 * on (recording the reset and starting fresh period counters) and puts the customer on the plan they hold then
 * (entitlement.ts). Requests that need the current period call it when the period has ended (`settleIfDue`),
 * the minute cron's fold for the customers of a range, and the daily cron for everyone (`settleDueBilling`).
 * Workers run in UTC, so date-fns' calendar months are UTC months (Jan 31 + 1 month = the last day of February).
 */
import { and, asc, eq, gt, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import { createDb, type Db } from "../db/client";
import { billingPeriodResets, usageCounters, users, type User } from "../db/schema";
import { syncCustomerState } from "../delivery/sync";
import type { Env } from "../env";
import { nextPeriod, periodEnded, type Period } from "../lib/periods";
import { getUser } from "../models/users";
import { PAYMENT_GRACE_MS, paidPlanLapsed, planAt, type PlanChoice } from "./entitlement";

const BATCH = 100;

/**
 * Writes a plan change and/or a new period in one batch. A new period also records its reset and zeroes the
 * period counters. With `replacingEnd` (a rollover) nothing happens unless the period still ends there, so two
 * requests rolling the same period over at once reset it once.
 */
async function writeBilling(
  db: Db,
  userId: string,
  change: { plan: PlanChoice | null; period?: Period; replacingEnd?: Date },
) {
  const { plan, period, replacingEnd } = change;
  const updateUser = db
    .update(users)
    .set({ ...plan, ...(period ? { billingPeriodStart: period.start, billingPeriodEnd: period.end } : {}) })
    .where(and(eq(users.id, userId), replacingEnd ? eq(users.billingPeriodEnd, replacingEnd) : undefined));
  if (!period) {
    await updateUser;
    return;
  }
  await db.batch([
    updateUser,
    db
      .update(usageCounters)
      .set({ periodRequests: 0, periodDeliveries: 0, periodUnbilledRequests: 0, periodUnbilledDeliveries: 0 })
      .where(and(eq(usageCounters.userId, userId), sql`changes() = 1`)),
    db.insert(billingPeriodResets).values({ userId, resetDate: period.start }).onConflictDoNothing(),
  ]);
}

/**
 * Brings the customer's billing up to `now`: the plan they hold then, and the current period (the one following
 * an ended period, or `newPeriod` when a purchase starts one). Writes the delivery state when anything
 * changed, and answers the customer as they are now.
 */
export async function settleBilling(
  env: Env,
  user: User,
  now: Date,
  options: { purchase?: boolean; newPeriod?: Period } = {},
): Promise<User> {
  const db = createDb(env.DB);
  const rollover = !options.newPeriod && periodEnded(user, now);
  const period = options.newPeriod ?? (rollover ? nextPeriod(user.billingPeriodEnd!, now) : undefined);
  const plan = await planAt(db, user, now, options.purchase);
  if (!plan && !period) return user;
  await writeBilling(db, user.id, { plan, period, replacingEnd: rollover ? user.billingPeriodEnd! : undefined });
  await syncCustomerState(env, user.id);
  return (await getUser(db, user.id)) ?? user;
}

/** Whether `settleBilling` has anything to do for the customer at `now`: a check in memory, no query. */
export function billingDue(user: User, now: Date): boolean {
  return periodEnded(user, now) || paidPlanLapsed(user, now);
}

/** `settleBilling` when it is due, else the customer as they are. */
export async function settleIfDue(env: Env, user: User, now: Date): Promise<User> {
  return billingDue(user, now) ? settleBilling(env, user, now) : user;
}

/**
 * Settles every customer whose period has ended or whose paid plan has lapsed (of `userIds` when given), in
 * pages by id. Running it again changes nothing until another period ends.
 */
export async function settleDueBilling(env: Env, now: Date, userIds?: string[]): Promise<number> {
  if (userIds?.length === 0) return 0;
  const db = createDb(env.DB);
  const due = or(
    and(isNotNull(users.billingPeriodEnd), lte(users.billingPeriodEnd, now)),
    and(
      eq(users.planSource, "paypal"),
      or(sql`${users.planPaidThrough} is null`, lte(users.planPaidThrough, new Date(now.getTime() - PAYMENT_GRACE_MS))),
    ),
  );
  let settled = 0;
  let after = "";
  for (;;) {
    const page = await db
      .select()
      .from(users)
      .where(and(due, gt(users.id, after), userIds ? inArray(users.id, userIds) : undefined))
      .orderBy(asc(users.id))
      .limit(BATCH);
    for (const user of page) {
      await settleBilling(env, user, now);
      settled++;
    }
    if (page.length < BATCH) return settled;
    after = page.at(-1)!.id;
  }
}
