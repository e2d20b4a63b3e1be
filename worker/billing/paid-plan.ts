/**
 * @module A verified payment (or PayPal's confirmation of an active subscription) covers a period, and the
 * customer's plan follows. The first period a subscription covers, or the first after its coverage lapsed, is a
 * purchase: the plan is granted (even over an admin's plan) and a billing period starts with the payment. A later
 * payment only moves the coverage on. Either way the customer's older subscriptions are replaced.
 */
import type { Db } from "../db/client";
import type { Subscription } from "../db/schema";
import type { Env } from "../env";
import { extendCoverage } from "../models/subscriptions";
import { getUser } from "../models/users";
import { stillPaid } from "./entitlement";
import type { Period } from "../lib/periods";
import { settleBilling } from "./periods";
import { cancelAtPayPal, replacedReason, replaceOlderSubscriptions } from "./replace-subscriptions";

export async function coverPeriod(env: Env, db: Db, subscription: Subscription, period: Period, now: Date) {
  // A payment for a period long past moves nothing (it is on record all the same).
  if (!stillPaid(period.end, now)) return;
  const purchase = !stillPaid(subscription.paidThrough, period.start);
  await extendCoverage(db, subscription.subscriptionId, period.end);
  if (subscription.replacedBy) {
    // Charged although it was replaced: the cancel is still owed, so try again now.
    await cancelAtPayPal(env, db, subscription.subscriptionId, replacedReason(subscription.replacedBy));
    return;
  }
  // On every payment, not only the first: a retry after a failure half-way still cancels the old subscription.
  await replaceOlderSubscriptions(env, db, subscription);
  const user = await getUser(db, subscription.userId);
  if (user) await settleBilling(env, user, now, purchase ? { purchase, newPeriod: period } : {});
}
