/** @module Money on the dashboards (SPEC.md §9); USD is the default currency. */

export const DEFAULT_CURRENCY = "USD";

interface MoneyFormat {
  /** German on the customer's payments and the admin's revenue (the default), US on the admin's transactions. */
  locale?: "de-DE" | "en-US";
  /** What an amount that is not a number shows: '-' (the default) or the text as PayPal sent it. */
  nonNumeric?: "dash" | "as-sent";
}

/**
 * An amount with its currency, e.g. "29,00 $" or, in US format, "$29.00"; a numeric string counts as its number,
 * no amount shows '-', and the currency defaults to USD. A currency code Intl does not know shows the number and
 * the code as sent.
 */
export function formatMoney(
  amount: number | string | null | undefined,
  currency: string | null | undefined,
  { locale = "de-DE", nonNumeric = "dash" }: MoneyFormat = {},
): string {
  if (amount === null || amount === undefined || String(amount).trim() === "") return "-";
  const value = Number(amount);
  if (!Number.isFinite(value)) return nonNumeric === "as-sent" ? String(amount) : "-";
  const code = currency || DEFAULT_CURRENCY;
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: code }).format(value);
  } catch {
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)} ${code}`;
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
