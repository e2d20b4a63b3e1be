/**
 * @module A plan change never leaves two subscriptions running: when a subscription is paid for, the customer's
 * older live subscriptions are marked replaced (they cover nothing from then on) and cancelled through PayPal's
 * API. (A newer one, e.g. approved but not yet paid, is the customer's latest choice and stays.) A cancel PayPal does not take now (unreachable, an error, no REST credentials) stays owed: the daily job
 * retries every replaced subscription PayPal may still charge until PayPal confirms it cancelled or expired.
 */
import type { Db } from "../db/client";
import type { Subscription } from "../db/schema";
import type { Env } from "../env";
import {
  markReplaced,
  olderLiveSubscriptions,
  setSubscriptionStatus,
  statusFromPayPal,
  type SubscriptionStatus,
} from "../models/subscriptions";
import { paypalConfig } from "../paypal/config";
import { cancelSubscription, getSubscription, PayPalUnavailableError } from "../paypal/rest-api";

/** Cancels the subscription at PayPal; answers the status it ends in, or null when the cancel is still owed. */
export async function cancelAtPayPal(env: Env, db: Db, subscriptionId: string, reason: string) {
  if (!paypalConfig(env).hasRestCredentials) {
    console.error(
      `Subscription ${subscriptionId} must be cancelled in PayPal by hand: no REST credentials (${reason})`,
    );
    return null;
  }
  try {
    let status: SubscriptionStatus | null = "cancelled";
    if ((await cancelSubscription(env, subscriptionId, reason)) === "refused") {
      // PayPal would not cancel it: already over, unknown to PayPal, or not yet approved by the buyer.
      const remote = await getSubscription(env, subscriptionId);
      status = remote ? statusFromPayPal(remote.status) : "cancelled";
    }
    if (status !== "cancelled" && status !== "expired") return null;
    await setSubscriptionStatus(db, subscriptionId, status);
    return status;
  } catch (err) {
    if (!(err instanceof PayPalUnavailableError)) throw err;
    console.error(`Cancelling subscription ${subscriptionId} failed (${err.message}); the daily job retries it`);
    return null;
  }
}

export const replacedReason = (by: string) => `Replaced by subscription ${by}`;

/** Replaces the customer's older live subscriptions by `current` and cancels them at PayPal. */
export async function replaceOlderSubscriptions(env: Env, db: Db, current: Subscription): Promise<void> {
  const others = await olderLiveSubscriptions(db, current);
  await markReplaced(
    db,
    others.map((s) => s.subscriptionId),
    current.subscriptionId,
  );
  for (const other of others) {
    await cancelAtPayPal(env, db, other.subscriptionId, replacedReason(current.subscriptionId));
  }
}
