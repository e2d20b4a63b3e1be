/**
 * @module The daily job's questions to PayPal (when REST credentials are configured), instead of trusting our own
 * status column: it retries the cancels we owe PayPal (replaced subscriptions), and asks about live subscriptions,
 * the least recently asked first, at most `CHECKS_PER_RUN` a day. PayPal's status is stored; a subscription
 * PayPal does not know (for this customer) covers nothing from then on; an ACTIVE one whose payment we were never
 * told about (a lost notification) is covered by that payment if it matches the plan's price. Then the
 * subscriptions PayPal charges that we never stored are looked for (adopt-subscriptions.ts). Whether a plan is
 * still held is then decided by coverage alone (entitlement.ts), in the billing sweep that follows.
 */
import { adoptUnstoredSubscriptions } from "./adopt-subscriptions";
import { createDb, type Db } from "../db/client";
import type { ProductVersion, Subscription } from "../db/schema";
import type { Env } from "../env";
import {
  markChecked,
  saveSubscription,
  setCoverage,
  setSubscriptionStatus,
  statusFromPayPal,
  subscriptionsToCancel,
  subscriptionsToCheck,
} from "../models/subscriptions";
import { latestPaymentTime } from "../models/transactions";
import { getUser } from "../models/users";
import { paypalConfig } from "../paypal/config";
import { getSubscription, PayPalUnavailableError, type PayPalSubscription } from "../paypal/rest-api";
import { coverPeriod } from "./paid-plan";
import { periodFrom } from "../lib/periods";
import { settleBilling } from "./periods";
import { planOf } from "./plan-price";
import { paymentAmountProblem } from "./price-match";
import { cancelAtPayPal, replacedReason } from "./replace-subscriptions";

const CHECKS_PER_RUN = 200;
/** A payment PayPal reports within this much of one we stored is that one. */
const SAME_PAYMENT_MS = 3_600_000;

/** The period the subscription's latest payment paid, when it is one we have not counted; else null. */
async function unseenPaidPeriod(
  env: Env,
  db: Db,
  subscription: Subscription,
  remote: PayPalSubscription,
  version: ProductVersion,
  now: Date,
) {
  const last = remote.lastPayment;
  if (!last) return subscription.paidThrough ? null : periodFrom(now, remote.nextBillingTime);
  const known = await latestPaymentTime(db, subscription.subscriptionId);
  if (known && last.time.getTime() <= known.getTime() + SAME_PAYMENT_MS) return null;
  const problem = paymentAmountProblem(
    { gross: last.value, tax: null, shipping: null, currency: last.currency },
    version,
    paypalConfig(env).currency,
  );
  if (problem) {
    console.warn(`Subscription ${subscription.subscriptionId}: PayPal's last payment does not count: ${problem}`);
    return null;
  }
  return periodFrom(last.time, remote.nextBillingTime);
}

async function checkSubscription(env: Env, db: Db, subscription: Subscription, now: Date) {
  const remote = await getSubscription(env, subscription.subscriptionId);
  await markChecked(db, subscription.subscriptionId, now);
  if (!remote || remote.customId !== subscription.userId) {
    console.warn(`Subscription ${subscription.subscriptionId} is not this customer's at PayPal: it covers nothing`);
    await setSubscriptionStatus(db, subscription.subscriptionId, "cancelled");
    await setCoverage(db, subscription.subscriptionId, null);
    const user = await getUser(db, subscription.userId);
    if (user) await settleBilling(env, user, now);
    return;
  }
  const status = statusFromPayPal(remote.status) ?? subscription.status;
  if (status !== subscription.status) await setSubscriptionStatus(db, subscription.subscriptionId, status);
  // Only an ACTIVE subscription whose coverage falls short of PayPal's next billing date may have been paid unseen.
  const next = remote.nextBillingTime;
  if (status !== "active" || !next || (subscription.paidThrough && subscription.paidThrough >= next)) return;
  const plan = await planOf(env, db, remote);
  const knownVersion = subscription.productVersionId;
  if (!plan.version || plan.problem || (knownVersion !== null && knownVersion !== plan.version.id)) {
    console.warn(
      `Subscription ${subscription.subscriptionId} does not count: ${plan.problem ?? "not the stored plan"}`,
    );
    return;
  }
  const current =
    knownVersion === null
      ? await saveSubscription(db, {
          userId: subscription.userId,
          subscriptionId: subscription.subscriptionId,
          planId: remote.planId,
          productVersionId: plan.version.id,
          status,
        })
      : subscription;
  const period = await unseenPaidPeriod(env, db, current, remote, plan.version, now);
  if (period) await coverPeriod(env, db, current, period, now);
}

export async function reconcileSubscriptions(env: Env, now: Date): Promise<void> {
  if (!paypalConfig(env).hasRestCredentials) return;
  const db = createDb(env.DB);
  for (const owed of await subscriptionsToCancel(db, CHECKS_PER_RUN)) {
    await cancelAtPayPal(env, db, owed.subscriptionId, replacedReason(owed.replacedBy!));
    await markChecked(db, owed.subscriptionId, now);
  }
  for (const subscription of await subscriptionsToCheck(db, CHECKS_PER_RUN)) {
    try {
      await checkSubscription(env, db, subscription, now);
    } catch (err) {
      if (!(err instanceof PayPalUnavailableError)) throw err;
      console.error(`Checking subscription ${subscription.subscriptionId} failed: ${err.message}`);
    }
  }
  await adoptUnstoredSubscriptions(env, db, now);
}
