/**
 * @module Handles one PayPal IPN message: verified by posting it back, checked against our receiver, stored
 * once per transaction id, linked to a customer (subscription id, else payer email), and applied: a completed
 * payment moves the customer's billing period and keeps the plan in step; a cancellation marks the profile.
 * Anything unverified, foreign, malformed or already seen changes nothing and leaves a log line.
 */
import { addMonths } from "date-fns";
import { startBillingPeriod } from "../billing/periods";
import { createDb, type Db } from "../db/client";
import { writeDocument } from "../delivery/document";
import type { Env } from "../env";
import { findProductVersionByPlanId } from "../models/product-versions";
import { cancelSubscription, findSubscription } from "../models/subscriptions";
import { insertTransaction, markProfileCancelled, type NewTransaction } from "../models/transactions";
import { findUserByEmail } from "../models/users";
import { paypalConfig } from "./config";
import { parsePayPalDate } from "./dates";
import { parseIpn, validationBody } from "./ipn-message";

export type IpnOutcome =
  "unverified" | "foreign-receiver" | "malformed" | "duplicate" | "stored" | "cancelled" | "ignored";

const CANCEL_TYPES = new Set(["recurring_payment_profile_cancel", "subscr_cancel"]);

async function verify(env: Env, raw: Uint8Array): Promise<string> {
  const res = await fetch(paypalConfig(env).ipnVerifyUrl, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": "dynamic-content-ipn" },
    body: validationBody(raw),
  });
  return (await res.text()).trim();
}

function toTransaction(
  f: Record<string, string>,
  userId: string | null,
  productVersionId: number | null,
): NewTransaction {
  const value = (key: string) => f[key] || null;
  const receivedAt = parsePayPalDate(f.payment_date) ?? new Date();
  return {
    userId,
    payerEmail: value("payer_email")?.toLowerCase() ?? null,
    originalEmail: value("payer_email"),
    emailCopy: value("payer_email"),
    payerFirstName: value("first_name"),
    payerLastName: value("last_name"),
    payerId: value("payer_id"),
    payerStatus: value("payer_status"),
    productVersionId,
    productName: value("product_name") ?? value("item_name"),
    productType: value("product_type"),
    amount: value("mc_gross") ?? value("amount") ?? value("payment_gross"),
    currency: value("mc_currency") ?? value("currency_code"),
    fee: value("mc_fee") ?? value("payment_fee"),
    tax: value("tax"),
    transactionId: f.txn_id!,
    recurringPaymentId: value("recurring_payment_id") ?? value("subscr_id"),
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
    receivedAt,
  };
}

/** The customer a payment belongs to, and the plan of their subscription. */
async function link(db: Db, f: Record<string, string>) {
  const subscriptionId = f.recurring_payment_id || f.subscr_id;
  const subscription = subscriptionId ? await findSubscription(db, subscriptionId) : undefined;
  const userId = subscription?.userId ?? (f.payer_email ? (await findUserByEmail(db, f.payer_email))?.id : undefined);
  const version = subscription?.planId ? await findProductVersionByPlanId(db, subscription.planId) : undefined;
  return { userId: userId ?? null, productVersionId: version?.id ?? null };
}

export async function handleIpn(env: Env, raw: Uint8Array): Promise<IpnOutcome> {
  const answer = await verify(env, raw);
  if (answer !== "VERIFIED") {
    console.warn(`IPN ignored: PayPal answered ${JSON.stringify(answer.slice(0, 20))} to the verification`);
    return "unverified";
  }
  const f = parseIpn(raw);
  const { receiverEmail } = paypalConfig(env);
  if (receiverEmail && f.receiver_email?.toLowerCase() !== receiverEmail) {
    console.warn(`IPN ${f.ipn_track_id ?? "?"} ignored: it is for another receiver`);
    return "foreign-receiver";
  }
  const db = createDb(env.DB);
  const subscriptionId = f.recurring_payment_id || f.subscr_id;
  const cancelled = CANCEL_TYPES.has(f.txn_type ?? "") || f.profile_status?.toLowerCase() === "cancelled";

  let outcome: IpnOutcome = "ignored";
  if (f.txn_id) {
    const { userId, productVersionId } = await link(db, f);
    const transaction = toTransaction(f, userId, productVersionId);
    if (!(await insertTransaction(db, transaction))) {
      console.warn(`IPN ${f.ipn_track_id ?? "?"} ignored: transaction ${f.txn_id} is stored already`);
      return "duplicate";
    }
    outcome = "stored";
    if (userId && f.payment_status?.toLowerCase() === "completed") {
      const start = transaction.receivedAt!;
      const end = parsePayPalDate(f.next_payment_date) ?? addMonths(start, 1);
      await startBillingPeriod(db, userId, { start, end }, productVersionId ?? undefined);
      await writeDocument(env, userId);
    }
  } else if (!cancelled) {
    console.warn(
      `IPN ${f.ipn_track_id ?? "?"} (${f.txn_type ?? "no txn_type"}) has no transaction id: nothing to store`,
    );
    return f.txn_type ? "ignored" : "malformed";
  }
  if (cancelled && subscriptionId) {
    await markProfileCancelled(db, subscriptionId);
    await cancelSubscription(db, subscriptionId);
    outcome = outcome === "stored" ? "stored" : "cancelled";
  }
  return outcome;
}
