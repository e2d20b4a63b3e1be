/**
 * @module Storing a subscription the buyer approved, confirmed with PayPal's REST API: PayPal must know it, for
 * this customer (`custom_id`), as APPROVED or ACTIVE, for one of our plans at that plan's price (plan-price.ts).
 * An ACTIVE one is paid: its plan is granted now. An APPROVED one is stored as pending, and its plan starts with
 * its first verified payment (the IPN) or when the daily job finds it ACTIVE.
 */
import type { MessageResponse } from "#contract/responses";
import type { Db } from "../db/client";
import type { ProductVersion, Subscription } from "../db/schema";
import type { Env } from "../env";
import { ApiError, badRequest, conflict } from "../http/errors";
import { saveSubscription, statusFromPayPal } from "../models/subscriptions";
import { getSubscription, PayPalUnavailableError, type PayPalSubscription } from "../paypal/rest-api";
import { coverPeriod } from "./paid-plan";
import { periodFrom } from "../lib/periods";
import { planOf } from "./plan-price";
import { cancelAtPayPal } from "./replace-subscriptions";
import { applyEarlierPayments } from "./subscription-payments";

export const UNCONFIRMED = "PayPal did not confirm this subscription";
export const NO_PLAN = "No plan matches this subscription";
export const PRICE_MISMATCH =
  "This subscription's price does not match the plan, so no plan was assigned and PayPal was asked to cancel it";
export const pendingMessage = (plan: string) =>
  `Subscription stored. The ${plan} plan starts as soon as PayPal confirms the first payment.`;

/** A call to PayPal's REST API from a request: PayPal unreachable is a 502 the customer can retry. */
async function askPayPal<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof PayPalUnavailableError)) throw err;
    console.error(err.message);
    throw new ApiError(502, "PayPal could not be reached. Please try again.");
  }
}

export async function storeConfirmedSubscription(
  env: Env,
  db: Db,
  userId: string,
  subscriptionId: string,
  now: Date,
): Promise<MessageResponse> {
  const remote = await askPayPal(() => getSubscription(env, subscriptionId));
  const status = remote ? statusFromPayPal(remote.status) : null;
  if (!remote || remote.customId !== userId || remote.status === "APPROVAL_PENDING") throw badRequest(UNCONFIRMED);
  if (status !== "pending" && status !== "active") throw badRequest(UNCONFIRMED);

  const plan = await askPayPal(() => planOf(env, db, remote));
  if (!plan.version) throw badRequest(NO_PLAN);
  if (plan.problem) {
    console.warn(`Subscription ${subscriptionId} refused: ${plan.problem}`);
    await cancelAtPayPal(env, db, subscriptionId, "Its price does not match the plan");
    throw badRequest(PRICE_MISMATCH);
  }

  const subscription = await storeFromPayPal(env, db, userId, remote, plan.version, status, now);
  if (subscription.userId !== userId) throw conflict("This subscription belongs to another account");
  return { message: status === "active" ? `Subscribed to ${plan.version.name}` : pendingMessage(plan.version.name) };
}

/**
 * Stores the subscription PayPal confirmed for the customer, for `version`, as `status` (or updates it: storing
 * the same subscription again changes nothing), then an ACTIVE one covers the period PayPal's latest payment paid
 * and the payments notified before it was stored count. Answers the stored row, which is another customer's when
 * they stored it first (and then nothing else happened).
 */
export async function storeFromPayPal(
  env: Env,
  db: Db,
  userId: string,
  remote: PayPalSubscription,
  version: ProductVersion,
  status: "pending" | "active",
  now: Date,
): Promise<Subscription> {
  const subscription = await saveSubscription(db, {
    userId,
    subscriptionId: remote.id,
    planId: remote.planId,
    productVersionId: version.id,
    status,
  });
  if (subscription.userId !== userId) return subscription;
  if (status === "active") {
    await coverPeriod(env, db, subscription, periodFrom(remote.lastPayment?.time ?? now, remote.nextBillingTime), now);
  }
  await applyEarlierPayments(env, db, subscription, now);
  return subscription;
}
