/** @module Transaction amounts in US currency format (SPEC.md §9: billing amounts, default currency USD). */

const DEFAULT_CURRENCY = "USD";

/** E.g. "$29.00"; a numeric string counts as its number; a missing or non-numeric amount shows '-'. */
export function formatUsAmount(
  amount: number | string | null | undefined,
  currency: string | null | undefined,
): string {
  if (amount === null || amount === undefined || (typeof amount === "string" && amount.trim() === "")) return "-";
  const value = Number(amount);
  if (!Number.isFinite(value)) return "-";
  const code = currency || DEFAULT_CURRENCY;
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: code }).format(value);
  } catch {
    // Not an ISO currency code: the number in US format and the code as sent.
    return `${new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)} ${code}`;
  }
}
