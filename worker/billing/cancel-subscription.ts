/**
 * @module A customer cancels their own subscription: it is cancelled at PayPal (no further charge), and the plan
 * it paid for stays until the paid period ends, after which the daily job moves the customer to the default plan
 * (entitlement.ts).
 */
import type { MessageResponse } from "#contract/responses";
import type { Db } from "../db/client";
import type { Env } from "../env";
import { ApiError, conflict, notFound } from "../http/errors";
import { getDefaultProductVersion } from "../models/product-versions";
import { currentSubscription, LIVE_STATUSES } from "../models/subscriptions";
import { paypalConfig } from "../paypal/config";
import { cancelAtPayPal } from "./replace-subscriptions";

export const CANCEL_UNCONFIRMED = "PayPal did not confirm the cancellation. Please try again in a few minutes.";

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

export async function cancelOwnSubscription(env: Env, db: Db, userId: string): Promise<MessageResponse> {
  const current = await currentSubscription(db, userId);
  if (!current || !LIVE_STATUSES.includes(current.subscription.status)) {
    throw notFound("You have no subscription to cancel");
  }
  if (!paypalConfig(env).hasRestCredentials) {
    throw conflict("Subscriptions cannot be cancelled here yet: cancel it in your PayPal account.");
  }
  const status = await cancelAtPayPal(env, db, current.subscription.subscriptionId, "Cancelled by the customer");
  if (!status) throw new ApiError(502, CANCEL_UNCONFIRMED);
  const { paidThrough } = current.subscription;
  const fallback = await getDefaultProductVersion(db);
  const stays =
    paidThrough && paidThrough.getTime() > Date.now() && current.plan
      ? ` Your ${current.plan} plan stays until ${day.format(paidThrough)}` +
        (fallback ? `, then your account moves to the ${fallback.name} plan.` : ".")
      : "";
  return { message: `Your subscription is cancelled: PayPal will not charge it again.${stays}` };
}
