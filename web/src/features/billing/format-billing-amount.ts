/** @module Billing amounts in US currency format (SPEC.md §9: default currency USD). */

const DEFAULT_CURRENCY = "USD";

/**
 * E.g. "$29.00" or "€12.50"; a numeric string counts as its number. A non-numeric amount is shown as it is,
 * none as '-'. A currency code Intl does not know shows the number in US format and the code as sent.
 */
export function formatBillingAmount(
  amount: number | string | null | undefined,
  currency: string | null | undefined,
): string {
  if (amount === null || amount === undefined || String(amount).trim() === "") return "-";
  const value = Number(amount);
  if (!Number.isFinite(value)) return String(amount);
  const code = currency || DEFAULT_CURRENCY;
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: code }).format(value);
  } catch {
    return `${new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)} ${code}`;
  }
}
