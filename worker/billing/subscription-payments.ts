/**
 * @module What a stored PayPal transaction does to entitlements. Only a completed payment of a stored
 * subscription counts, and only when its amount and currency match the subscription's plan; it then pays for its
 * period (payment date to PayPal's next payment date). A refund or reversal takes its payment back, which ends
 * the coverage that payment gave at once. Nothing here looks at the payer's email. A completed payment of a
 * subscription no account stores is noted for the admin (models/unclaimed-subscriptions.ts).
 */
import type { Db } from "../db/client";
import type { PayPalTransaction, Subscription } from "../db/schema";
import type { Env } from "../env";
import { getProductVersion } from "../models/product-versions";
import { findSubscription, setCoverage } from "../models/subscriptions";
import {
  claimSubscriptionTransactions,
  findTransaction,
  isTakenBack,
  linkTransaction,
  paymentCoverage,
  uncountedPayments,
} from "../models/transactions";
import { noteUnclaimedPayment } from "../models/unclaimed-subscriptions";
import { getUser } from "../models/users";
import { paypalConfig } from "../paypal/config";
import { coverPeriod } from "./paid-plan";
import { periodFrom } from "../lib/periods";
import { settleBilling } from "./periods";
import { paymentAmountProblem } from "./price-match";

const isCompleted = (t: PayPalTransaction) => t.paymentStatus?.toLowerCase() === "completed";

/** A field of the notification that has no column of its own. */
function notificationField(t: PayPalTransaction, key: string): string | null {
  try {
    const value = (JSON.parse(t.rawPayload ?? "{}") as Record<string, unknown>)[key];
    return typeof value === "string" && value !== "" ? value : null;
  } catch {
    return null;
  }
}

/** Counts a completed payment of `subscription` (stored already), if it matches the plan. */
async function countPayment(env: Env, db: Db, payment: PayPalTransaction, subscription: Subscription, now: Date) {
  const version = subscription.productVersionId
    ? await getProductVersion(db, subscription.productVersionId)
    : undefined;
  await linkTransaction(db, payment.transactionId, { userId: subscription.userId, productVersionId: version?.id });
  if (!isCompleted(payment) || payment.periodEnd) return;
  if (!version) {
    console.warn(`Payment ${payment.transactionId}: subscription ${subscription.subscriptionId} has no known plan`);
    return;
  }
  const problem = paymentAmountProblem(
    {
      gross: payment.amount,
      tax: payment.tax,
      shipping: notificationField(payment, "shipping"),
      currency: payment.currency,
    },
    version,
    paypalConfig(env).currency,
  );
  if (problem) {
    console.warn(`Payment ${payment.transactionId} of ${subscription.subscriptionId} does not count: ${problem}`);
    return;
  }
  const nextPayment = payment.nextPaymentDate ? new Date(payment.nextPaymentDate) : null;
  const period = periodFrom(
    payment.receivedAt ?? now,
    nextPayment && !Number.isNaN(nextPayment.getTime()) ? nextPayment : null,
  );
  if (!(await isTakenBack(db, payment.transactionId))) await coverPeriod(env, db, subscription, period, now);
  // Recorded last: it marks the payment counted, so a retry after a failure above counts it again.
  await linkTransaction(db, payment.transactionId, { userId: subscription.userId, period });
}

/** A payment notification of a subscription: counted when the subscription is ours. */
export async function applyPayment(env: Env, db: Db, payment: PayPalTransaction, now: Date) {
  const subscription = payment.recurringPaymentId ? await findSubscription(db, payment.recurringPaymentId) : undefined;
  if (!subscription) {
    console.warn(`Payment ${payment.transactionId} is for no stored subscription: kept for the admin, no plan changes`);
    if (payment.recurringPaymentId && isCompleted(payment) && !payment.parentTransactionId) {
      await noteUnclaimedPayment(db, {
        subscriptionId: payment.recurringPaymentId,
        transactionId: payment.transactionId,
        paidAt: payment.receivedAt ?? payment.createdAt,
      });
    }
    return;
  }
  await countPayment(env, db, payment, subscription, now);
}

/** Counts the subscription's payments that arrived before it was stored, and shows them to its customer. */
export async function applyEarlierPayments(env: Env, db: Db, subscription: Subscription, now: Date) {
  await claimSubscriptionTransactions(db, subscription.subscriptionId, subscription.userId);
  for (const payment of await uncountedPayments(db, subscription.subscriptionId)) {
    const current = (await findSubscription(db, subscription.subscriptionId)) ?? subscription;
    await countPayment(env, db, payment, current, now);
  }
}

/**
 * A refund, reversal or cancelled reversal (`reversal` is stored already): the subscription's coverage is what its
 * payments not taken back still cover, and the customer's plan follows at once.
 */
export async function applyReversal(env: Env, db: Db, reversal: PayPalTransaction, now: Date) {
  const payment = reversal.parentTransactionId ? await findTransaction(db, reversal.parentTransactionId) : undefined;
  const subscription = payment?.recurringPaymentId ? await findSubscription(db, payment.recurringPaymentId) : undefined;
  if (!payment || !subscription) {
    console.warn(`${reversal.paymentStatus} ${reversal.transactionId} takes back no counted subscription payment`);
    return;
  }
  await linkTransaction(db, reversal.transactionId, { userId: subscription.userId });
  if (!payment.periodEnd) return;
  await setCoverage(db, subscription.subscriptionId, await paymentCoverage(db, subscription.subscriptionId));
  const user = await getUser(db, subscription.userId);
  if (user) await settleBilling(env, user, now);
}
