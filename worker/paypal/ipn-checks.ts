/**
 * @module What kind of PayPal notification a message is, and whether it is for our PayPal account. Only
 * subscription payments (`recurring_payment`, `subscr_payment`), refunds and reversals of them, and subscription
 * profile events can change entitlements; any other transaction is only kept for the admin.
 */
import type { SubscriptionStatus } from "../models/subscriptions";
import type { PayPalConfig } from "./config";

export type IpnFields = Record<string, string>;

const PAYMENT_TYPES = new Set(["recurring_payment", "subscr_payment"]);

/** Subscription profile events and the status each one means (null: noted, no status change). */
const PROFILE_EVENTS: Record<string, SubscriptionStatus | null> = {
  recurring_payment_profile_created: null,
  subscr_signup: null,
  subscr_modify: null,
  recurring_payment_failed: null,
  recurring_payment_skipped: null,
  subscr_failed: null,
  recurring_payment_suspended: "suspended",
  recurring_payment_suspended_due_to_max_failed_payment: "suspended",
  recurring_payment_profile_cancel: "cancelled",
  subscr_cancel: "cancelled",
  recurring_payment_expired: "expired",
  subscr_eot: "expired",
};

const REVERSAL_STATUSES = new Set(["refunded", "reversed", "canceled_reversal"]);

export type IpnKind = "payment" | "reversal" | "profile-event" | "other-transaction" | "no-transaction";

export function ipnKind(f: IpnFields): IpnKind {
  const type = f.txn_type ?? "";
  if (f.txn_id && f.parent_txn_id && REVERSAL_STATUSES.has((f.payment_status ?? "").toLowerCase())) return "reversal";
  if (f.txn_id && PAYMENT_TYPES.has(type)) return "payment";
  if (!f.txn_id && Object.hasOwn(PROFILE_EVENTS, type)) return "profile-event";
  return f.txn_id ? "other-transaction" : "no-transaction";
}

/** The status a profile event moves its subscription to; null when it moves none. */
export function profileEventStatus(f: IpnFields): SubscriptionStatus | null {
  return PROFILE_EVENTS[f.txn_type ?? ""] ?? null;
}

export const subscriptionIdOf = (f: IpnFields): string | null => f.recurring_payment_id || f.subscr_id || null;

/**
 * Whether the message is for our PayPal account: every receiver field we have configured and the message
 * carries must match (the email case-insensitively; `business` stands in for a missing `receiver_email`), and
 * at least one must be there to compare.
 */
export function receiverMatches(f: IpnFields, config: Pick<PayPalConfig, "receiverEmail" | "receiverId">): boolean {
  const email = (f.receiver_email || f.business || "").trim().toLowerCase();
  const id = (f.receiver_id || "").trim();
  const checks: boolean[] = [];
  if (config.receiverEmail && email) checks.push(email === config.receiverEmail);
  if (config.receiverId && id) checks.push(id === config.receiverId);
  return checks.length > 0 && checks.every(Boolean);
}
