/** @module Admin revenue (SPEC.md §9): euros with 2 decimals, in German format like the other admin screens. */

const euros = new Intl.NumberFormat("de-DE", {
  style: "currency",
  currency: "EUR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** e.g. "1.234,50 €" (a no-break space before the sign). */
export function formatEuros(amount: number): string {
  return euros.format(amount);
}
