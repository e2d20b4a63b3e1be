/** @module How the product versions table shows limits and prices (SPEC.md §2, §9). */
import { isUnlimited } from "@/lib/limits";

/** A limit, or ∞ when it is null or 0. */
export function formatVersionLimit(limit: number | null): string {
  return isUnlimited(limit) ? "∞" : String(limit);
}

/** '$' and the price (whole dollars as they are, else with its cents: $29.90), or '-' without one. */
export function formatVersionPrice(price: number | null): string {
  if (price === null) return "-";
  return `$${Number.isInteger(price) ? price : price.toFixed(2)}`;
}
