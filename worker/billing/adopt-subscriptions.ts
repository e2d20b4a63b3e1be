/**
 * @module The daily job's search for subscriptions PayPal charges that we never stored: the buyer approved, but
 * storing failed (PayPal or we out of reach, the tab closed before the approval came back). PayPal's REST API lists
 * no subscriptions, so the payments notified for a subscription id no stored subscription holds name them; each is
 * asked about (`GET /v1/billing/subscriptions/{id}`) once after each of its payments, those of the last
 * `WINDOW_DAYS` days, at most `LOOKUPS_PER_RUN` a run. One PayPal reports ACTIVE for a customer of ours
 * (`custom_id`), on one of our plans at its price, is stored for that customer as storing it after the approval
 * would have (confirm-subscription.ts): its plan granted, its payments counted and shown in their history. When the
 * customer holds a live stored subscription, that one stays (the `custom_id` is the buyer's browser's word, so a
 * stranger's subscription must not cancel theirs): this one is stored replaced by it, its payments shown, and
 * cancelled at PayPal. Anything else stays for the admin, its reason logged and kept (`subscription_lookups`).
 */
import type { Db } from "../db/client";
import type { Env } from "../env";
import { purgeLookups, recordLookup, unstoredChargedSubscriptions } from "../models/subscription-lookups";
import {
  findSubscription,
  LIVE_STATUSES,
  markReplaced,
  newestLiveSubscription,
  saveSubscription,
  statusFromPayPal,
} from "../models/subscriptions";
import { getUser } from "../models/users";
import { getSubscription, PayPalUnavailableError, type PayPalSubscription } from "../paypal/rest-api";
import { storeFromPayPal } from "./confirm-subscription";
import { planOf } from "./plan-price";
import { cancelAtPayPal, replacedReason } from "./replace-subscriptions";
import { applyEarlierPayments } from "./subscription-payments";

export const WINDOW_DAYS = 35;
export const LOOKUPS_PER_RUN = 50;
const DAY_MS = 86_400_000;

/** Stores one subscription PayPal charges for a customer of ours, or answers why not. */
async function adopt(env: Env, db: Db, remote: PayPalSubscription, now: Date): Promise<string | null> {
  const user = remote.customId ? await getUser(db, remote.customId) : undefined;
  if (!user) return `its custom_id (${remote.customId ?? "none"}) names no customer`;
  if (statusFromPayPal(remote.status) !== "active") return `PayPal reports it ${remote.status}`;
  const plan = await planOf(env, db, remote);
  if (!plan.version) return `its plan (${remote.planId ?? "none"}) is none of ours`;
  if (plan.problem) return plan.problem;

  const latest = await newestLiveSubscription(db, user.id);
  if (!latest) {
    await storeFromPayPal(env, db, user.id, remote, plan.version, "active", now);
    console.warn(`Subscription ${remote.id}, charged but never stored, is stored for customer ${user.id}`);
    return null;
  }
  const stored = await saveSubscription(db, {
    userId: user.id,
    subscriptionId: remote.id,
    planId: remote.planId,
    productVersionId: plan.version.id,
    status: "active",
  });
  await markReplaced(db, [remote.id], latest.subscriptionId);
  // Its payments are shown and cover nothing; counting one already asks PayPal to cancel it.
  await applyEarlierPayments(env, db, { ...stored, replacedBy: latest.subscriptionId }, now);
  const after = await findSubscription(db, remote.id);
  if (after && LIVE_STATUSES.includes(after.status)) {
    await cancelAtPayPal(env, db, remote.id, replacedReason(latest.subscriptionId));
  }
  console.warn(`Subscription ${remote.id}, charged but never stored, is replaced by ${latest.subscriptionId}`);
  return null;
}

export async function adoptUnstoredSubscriptions(env: Env, db: Db, now: Date): Promise<void> {
  const since = new Date(now.getTime() - WINDOW_DAYS * DAY_MS);
  await purgeLookups(db, since, LOOKUPS_PER_RUN * 20);
  for (const subscriptionId of await unstoredChargedSubscriptions(db, since, LOOKUPS_PER_RUN)) {
    try {
      const remote = await getSubscription(env, subscriptionId);
      const outcome = remote ? await adopt(env, db, remote, now) : "PayPal does not know it";
      if (outcome) {
        console.warn(`Subscription ${subscriptionId} is charged but not stored: ${outcome}; left for the admin`);
        await recordLookup(db, subscriptionId, outcome, now);
      }
    } catch (err) {
      if (!(err instanceof PayPalUnavailableError)) throw err;
      // Asked again tomorrow; the rest would fail the same way.
      console.error(`Asking PayPal about unstored subscription ${subscriptionId} failed: ${err.message}`);
      return;
    }
  }
}
