/** @module Plan limits (SPEC.md §9): null, and also 0, mean unlimited. */

export function isUnlimited(limit: number | null | undefined): limit is null | undefined | 0 {
  return limit === null || limit === undefined || limit === 0;
}
