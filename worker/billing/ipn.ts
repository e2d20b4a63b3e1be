/**
 * @module One PayPal IPN message, handled before it is answered, because PayPal retries every answer but 200:
 * - not processed without our receiver configured (503: kept at PayPal, retried);
 * - refused (400) when it is no notification, a test message outside the sandbox, or PayPal calls it INVALID;
 * - 503 when PayPal's verification cannot be reached, 500 when storing fails: PayPal sends it again;
 * - 200 once it is verified and stored (or known already), or verified but for another receiver (ignored).
 * A stored transaction is linked to the customer who holds its stored subscription; one no stored subscription
 * holds, to the account with the payer's email (if any), for display only: what a transaction does to
 * entitlements is billing's (subscription-payments.ts), and the email grants nothing. Every refusal leaves a log
 * line.
 */
import { applyPayment, applyReversal } from "./subscription-payments";
import { createDb, type Db } from "../db/client";
import type { Subscription } from "../db/schema";
import type { Env } from "../env";
import { findSubscription, setSubscriptionStatus } from "../models/subscriptions";
import { findTransaction, markProfileCancelled, upsertTransaction, type NewTransaction } from "../models/transactions";
import { findUserByEmail } from "../models/users";
import { paypalConfig } from "../paypal/config";
import { parsePayPalDate } from "../paypal/dates";
import { ipnKind, profileEventStatus, receiverMatches, subscriptionIdOf, type IpnFields } from "../paypal/ipn-checks";
import { parseIpn } from "../paypal/ipn-message";
import { verifyIpn } from "../paypal/ipn-verify";

export type IpnAnswer = { status: 200 } | { status: 400 | 503; error: string };

const FINAL_STATUSES = new Set(["cancelled", "expired"]);

/** `owner`: the account the transaction belongs to (its subscription's holder, else the payer's account). */
function toTransaction(
  f: IpnFields,
  subscription: Subscription | undefined,
  owner: string | null,
  now: Date,
): NewTransaction {
  const value = (key: string) => f[key] || null;
  return {
    userId: owner,
    payerEmail: value("payer_email")?.toLowerCase() ?? null,
    originalEmail: value("payer_email"),
    emailCopy: value("payer_email"),
    payerFirstName: value("first_name"),
    payerLastName: value("last_name"),
    payerId: value("payer_id"),
    payerStatus: value("payer_status"),
    productVersionId: subscription?.productVersionId ?? null,
    productName: value("product_name") ?? value("item_name"),
    productType: value("product_type"),
    amount: value("mc_gross") ?? value("amount") ?? value("payment_gross"),
    currency: value("mc_currency") ?? value("currency_code"),
    fee: value("mc_fee") ?? value("payment_fee"),
    tax: value("tax"),
    transactionId: f.txn_id!,
    recurringPaymentId: subscriptionIdOf(f),
    transactionType: value("txn_type"),
    paymentStatus: value("payment_status"),
    paymentType: value("payment_type"),
    addressName: value("address_name"),
    addressStreet: value("address_street"),
    addressCity: value("address_city"),
    addressState: value("address_state"),
    addressZip: value("address_zip"),
    addressCountry: value("address_country"),
    addressCountryCode: value("address_country_code"),
    residenceCountry: value("residence_country"),
    addressStatus: value("address_status"),
    subscriptionType: value("period_type") ?? value("product_type"),
    paymentCycle: value("payment_cycle"),
    nextPaymentDate: parsePayPalDate(f.next_payment_date)?.toISOString() ?? value("next_payment_date"),
    profileStatus: value("profile_status"),
    receiverEmail: value("receiver_email"),
    receiverId: value("receiver_id"),
    ipnTrackId: value("ipn_track_id"),
    notifyVersion: value("notify_version"),
    verifySign: value("verify_sign"),
    rawPayload: JSON.stringify(f),
    parentTransactionId: value("parent_txn_id"),
    receivedAt: parsePayPalDate(f.payment_date) ?? now,
  };
}

/** A profile event moves its stored subscription's status; a cancelled or expired one stays so. */
async function applyProfileEvent(db: Db, f: IpnFields, subscription: Subscription | undefined) {
  const status = profileEventStatus(f);
  if (!subscription || !status) {
    console.info(`IPN ${f.ipn_track_id ?? "?"} (${f.txn_type}) noted: no status change for a stored subscription`);
    return;
  }
  if (status === "cancelled") await markProfileCancelled(db, subscription.subscriptionId);
  if (!FINAL_STATUSES.has(subscription.status)) await setSubscriptionStatus(db, subscription.subscriptionId, status);
}

/** Stores and applies a verified message of our receiver. Throws when storing fails (PayPal retries). */
async function applyVerified(env: Env, f: IpnFields, now: Date) {
  const db = createDb(env.DB);
  const kind = ipnKind(f);
  const subscriptionId = subscriptionIdOf(f);
  const subscription = subscriptionId ? await findSubscription(db, subscriptionId) : undefined;
  if (kind === "profile-event") return applyProfileEvent(db, f, subscription);
  if (kind === "no-transaction") {
    console.warn(`IPN ${f.ipn_track_id ?? "?"} (${f.txn_type}) changes nothing: no transaction, no subscription event`);
    return;
  }
  const payer = subscription || !f.payer_email ? undefined : await findUserByEmail(db, f.payer_email);
  const owner = subscription?.userId ?? payer?.id ?? null;
  const change = await upsertTransaction(db, toTransaction(f, subscription, owner, now));
  if (change === "known") console.info(`IPN ${f.ipn_track_id ?? "?"}: transaction ${f.txn_id} is known already`);
  // Applying again is harmless, and finishes the work of an earlier attempt that failed half-way.
  const stored = (await findTransaction(db, f.txn_id!))!;
  if (kind === "payment") await applyPayment(env, db, stored, now);
  if (kind === "reversal") await applyReversal(env, db, stored, now);
}

export async function handleIpn(env: Env, raw: Uint8Array, now = new Date()): Promise<IpnAnswer> {
  const config = paypalConfig(env);
  if (!config.receiverEmail && !config.receiverId) {
    console.error(
      "PayPal notification not processed: set PAYPAL_RECEIVER_EMAIL or PAYPAL_RECEIVER_ID (PayPal retries)",
    );
    return { status: 503, error: "Payment notifications are not configured yet" };
  }
  const f = parseIpn(raw);
  const track = f.ipn_track_id ?? "?";
  if (!f.txn_id && !f.txn_type) {
    console.warn("IPN refused: not a PayPal notification");
    return { status: 400, error: "This is not a PayPal notification" };
  }
  if (f.test_ipn === "1" && !config.sandbox) {
    console.warn(`IPN ${track} refused: a test notification outside the sandbox`);
    return { status: 400, error: "Test notifications are accepted only in the PayPal sandbox" };
  }
  const verdict = await verifyIpn(env, raw);
  if (verdict === "unavailable") return { status: 503, error: "PayPal could not verify the notification right now" };
  if (verdict === "INVALID") {
    console.warn(`IPN ${track} refused: PayPal answered INVALID to the verification`);
    return { status: 400, error: "PayPal did not verify this notification" };
  }
  if (!receiverMatches(f, config)) {
    console.warn(`IPN ${track} ignored: it is for another receiver`);
    return { status: 200 };
  }
  await applyVerified(env, f, now);
  return { status: 200 };
}
