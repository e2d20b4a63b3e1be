/** @module Money on the customer dashboard (SPEC.md §9). */

const DEFAULT_CURRENCY = "USD";

/** A payment in German format, e.g. "29,00 $"; the currency defaults to USD. */
export function formatPaymentAmount(amount: number, currency: string | null | undefined): string {
  const code = currency || DEFAULT_CURRENCY;
  try {
    return new Intl.NumberFormat("de-DE", { style: "currency", currency: code }).format(amount);
  } catch {
    // Not an ISO currency code: the number in German format and the code as sent.
    return `${new Intl.NumberFormat("de-DE", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${code}`;
  }
}

/** A plan's monthly price in US format, e.g. "$29 / month" (cents only when there are any). */
export function formatMonthlyPrice(price: number): string {
  const fractionDigits = Number.isInteger(price) ? 0 : 2;
  const usd = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: DEFAULT_CURRENCY,
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
  return `${usd.format(price)} / month`;
}
