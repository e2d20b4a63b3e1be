/**
 * @module The admin's two answers to a PayPal subscription that pays us but that no account stores: link it to
 * the account its payments are linked to (stored and confirmed as the customer's own purchase would be, so its
 * plan is granted and its payments count), or cancel it at PayPal so it charges nobody again.
 */
import type { MessageResponse } from "#contract/responses";
import type { Db } from "../db/client";
import type { Env } from "../env";
import { ApiError, badRequest, conflict, notFound } from "../http/errors";
import {
  findUnclaimedSubscription,
  markUnclaimedCancelled,
  removeUnclaimedSubscription,
} from "../models/unclaimed-subscriptions";
import { paypalConfig } from "../paypal/config";
import { CANCEL_UNCONFIRMED } from "./cancel-subscription";
import { storeConfirmedSubscription, UNCONFIRMED } from "./confirm-subscription";
import { cancelAtPayPal } from "./replace-subscriptions";

export const NOT_UNCLAIMED = "No unclaimed subscription has this id: it is stored or cancelled already";
export const NO_ACCOUNT =
  "Its payment is linked to no account: correct the payer email on the payment first, or cancel the subscription";
export const NEEDS_REST_API =
  "PayPal's REST credentials are not configured: the subscription cannot be confirmed or cancelled here";
export const NOT_THEIRS = (email: string) =>
  `PayPal does not confirm this subscription as ${email}'s (it names another buyer or is not active): not linked`;

async function openOne(env: Env, db: Db, subscriptionId: string) {
  const unclaimed = await findUnclaimedSubscription(db, subscriptionId);
  if (!unclaimed) throw notFound(NOT_UNCLAIMED);
  if (!paypalConfig(env).hasRestCredentials) throw conflict(NEEDS_REST_API);
  return unclaimed;
}

export async function linkUnclaimedSubscription(
  env: Env,
  db: Db,
  subscriptionId: string,
  now: Date,
): Promise<MessageResponse> {
  const { account } = await openOne(env, db, subscriptionId);
  if (!account) throw conflict(NO_ACCOUNT);
  let stored: MessageResponse;
  try {
    stored = await storeConfirmedSubscription(env, db, account.id, subscriptionId, now);
  } catch (err) {
    // The customer's wording ("PayPal did not confirm…") says too little to the admin.
    if (err instanceof ApiError && err.message === UNCONFIRMED) throw badRequest(NOT_THEIRS(account.email));
    throw err;
  }
  await removeUnclaimedSubscription(db, subscriptionId);
  console.info(`Unclaimed subscription ${subscriptionId} linked to account ${account.id} by an admin`);
  return { message: `Linked to ${account.email}. ${stored.message}` };
}

export async function cancelUnclaimedSubscription(
  env: Env,
  db: Db,
  subscriptionId: string,
  now: Date,
): Promise<MessageResponse> {
  await openOne(env, db, subscriptionId);
  const status = await cancelAtPayPal(
    env,
    db,
    subscriptionId,
    "Paid subscription of no account: cancelled by an admin",
  );
  if (!status) throw new ApiError(502, CANCEL_UNCONFIRMED);
  await markUnclaimedCancelled(db, subscriptionId, now);
  return { message: `Subscription ${subscriptionId} is ${status} at PayPal: it will not be charged again.` };
}
