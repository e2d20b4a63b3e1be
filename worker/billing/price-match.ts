/**
 * @module Whether what PayPal charges matches the plan: a subscription's PayPal plan (REGULAR cycle, monthly, the
 * version's price in the billing currency, no price override, quantity 1) and a payment's amount (gross less tax
 * and shipping) and currency. Each answers null when it matches, else the reason, for the log and the answer.
 */
import type { ProductVersion } from "../db/schema";
import type { PayPalPlan, PayPalSubscription } from "../paypal/rest-api";

/** A decimal amount ("29.00", "-29", "0.5") in cents; null when it is no plain decimal number. */
export function toCents(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return null;
  return Math.round(Number(value) * 100);
}

const formatCents = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

function priceProblem(cents: number | null, currency: string, version: ProductVersion, billingCurrency: string) {
  if (version.priceCents === null) return `the plan ${version.name} has no price`;
  if (currency.toUpperCase() !== billingCurrency) return `${currency} is not the billing currency ${billingCurrency}`;
  if (cents !== version.priceCents) {
    return `${cents === null ? "no amount" : formatCents(cents, currency)} is not the plan's price ${formatCents(version.priceCents, billingCurrency)}`;
  }
  return null;
}

export function subscriptionPriceProblem(
  subscription: PayPalSubscription,
  plan: PayPalPlan | null,
  version: ProductVersion,
  billingCurrency: string,
): string | null {
  if (subscription.planOverridden) return "PayPal reports a price override on this subscription";
  if (subscription.quantity !== null && subscription.quantity !== "1") {
    return `the subscription is for a quantity of ${subscription.quantity}`;
  }
  const regular = plan?.regular;
  if (!regular) return "PayPal's plan has no regular price";
  if (regular.intervalUnit !== "MONTH" || regular.intervalCount !== 1) return "PayPal's plan is not billed monthly";
  return priceProblem(toCents(regular.value), regular.currency, version, billingCurrency);
}

export interface PaymentAmount {
  gross: string | null;
  tax: string | null;
  shipping: string | null;
  currency: string | null;
}

export function paymentAmountProblem(
  payment: PaymentAmount,
  version: ProductVersion,
  billingCurrency: string,
): string | null {
  const gross = toCents(payment.gross);
  const net = gross === null ? null : gross - (toCents(payment.tax) ?? 0) - (toCents(payment.shipping) ?? 0);
  return priceProblem(net, payment.currency ?? "no currency", version, billingCurrency);
}
