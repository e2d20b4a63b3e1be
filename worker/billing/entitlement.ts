/**
 * @module Which plan a customer holds. A plan bought through PayPal is held while a verified payment covers it
 * (plus a few days' grace, because PayPal charges on the due date and its notification may come later, or after a
 * retried charge). Cancelled, suspended and expired subscriptions get no next payment, so their plan ends with
 * the paid period; a refund or reversal of the covering payment ends it at once. A plan an admin gave by hand is
 * not a paid plan: only the customer's own new purchase replaces it.
 */
import type { Db } from "../db/client";
import type { PlanSource, User } from "../db/schema";
import { getDefaultProductVersion } from "../models/product-versions";
import { coveringSubscription } from "../models/subscriptions";

const DAY_MS = 86_400_000;
/** How long after the paid period a plan is kept while the next payment is on its way. */
export const PAYMENT_GRACE_MS = 3 * DAY_MS;

/** Whether coverage up to `paidThrough` still holds a plan at `at`. */
export function stillPaid(paidThrough: Date | null | undefined, at: Date): boolean {
  return paidThrough !== null && paidThrough !== undefined && at.getTime() < paidThrough.getTime() + PAYMENT_GRACE_MS;
}

export interface PlanChoice {
  productVersionId: number | null;
  planSource: PlanSource;
  planPaidThrough: Date | null;
}

/** Whether the customer holds a PayPal plan whose coverage has run out. */
export function paidPlanLapsed(user: User, now: Date): boolean {
  return user.planSource === "paypal" && !stillPaid(user.planPaidThrough, now);
}

/**
 * The plan the customer should hold at `now`, or null when that is the plan they hold. `purchase`: the customer
 * has just paid for a subscription, which replaces even an admin's plan.
 */
export async function planAt(db: Db, user: User, now: Date, purchase = false): Promise<PlanChoice | null> {
  const covering = await coveringSubscription(db, user.id, new Date(now.getTime() - PAYMENT_GRACE_MS));
  let choice: PlanChoice | null = null;
  if (covering && (user.planSource !== "admin" || purchase)) {
    choice = {
      productVersionId: covering.productVersionId,
      planSource: "paypal",
      planPaidThrough: covering.paidThrough,
    };
  } else if (!covering && user.planSource === "paypal") {
    const fallback = await getDefaultProductVersion(db);
    choice = { productVersionId: fallback?.id ?? null, planSource: "default", planPaidThrough: null };
  }
  if (!choice) return null;
  const unchanged =
    choice.productVersionId === user.productVersionId &&
    choice.planSource === user.planSource &&
    choice.planPaidThrough?.getTime() === user.planPaidThrough?.getTime();
  return unchanged ? null : choice;
}
