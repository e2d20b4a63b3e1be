/** @module How the product versions table shows limits and prices (SPEC.md §2, §9). */
import { isUnlimited } from "@/lib/limits";

/** A limit, or ∞ when it is null or 0. */
export function formatVersionLimit(limit: number | null): string {
  return isUnlimited(limit) ? "∞" : String(limit);
}

/** '$' and the stored price as it is, or '-' without one. */
export function formatVersionPrice(price: number | null): string {
  return price === null ? "-" : `$${price}`;
}
