/** @module Money on the dashboards (SPEC.md §9); USD is the default currency. */

export const DEFAULT_CURRENCY = "USD";

/**
 * An amount in German format with its currency, e.g. "29,00 $" (customer payments, admin revenue); the currency
 * defaults to USD.
 */
export function formatMoney(amount: number, currency: string | null | undefined): string {
  const code = currency || DEFAULT_CURRENCY;
  try {
    return new Intl.NumberFormat("de-DE", { style: "currency", currency: code }).format(amount);
  } catch {
    // Not an ISO currency code: the number in German format and the code as sent.
    return `${new Intl.NumberFormat("de-DE", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${code}`;
  }
}

/** A plan's monthly price in US format, e.g. "$29 / month" (cents only when there are any). */
export function formatMonthlyPrice(price: number, currency: string | null | undefined = DEFAULT_CURRENCY): string {
  const fractionDigits = Number.isInteger(price) ? 0 : 2;
  const money = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: currency || DEFAULT_CURRENCY,
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
  return `${money.format(price)} / month`;
}
