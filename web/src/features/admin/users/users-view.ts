/** @module The overview's sorting (SPEC.md §2 "Admin users screen", done by the server) and value helpers. */

export type UserSortField = "email" | "totalRequests" | "requestLimit";
export type SortDirection = "asc" | "desc";
export interface UserSort {
  field: UserSortField;
  direction: SortDirection;
}

/** A header click: ascending first, then flipping between ascending and descending. */
export function nextSort(current: UserSort | null, field: UserSortField): UserSort {
  if (current?.field !== field) return { field, direction: "asc" };
  return { field, direction: current.direction === "asc" ? "desc" : "asc" };
}

/**
 * The typed request limit: a whole number of at least 0, or null (unlimited) for anything else. A blank or
 * non-numeric input becomes null (SPEC.md §5); decimals are cut to whole numbers, negatives become null too.
 */
export function parseRequestLimit(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d*)?$/.test(trimmed)) return null;
  return Math.trunc(Number(trimmed));
}

/** SPEC.md §4: profile status Cancelled (any case) marks a cancelled subscription. */
export function isCancelled(profileStatus: string | null | undefined): boolean {
  return profileStatus?.trim().toLowerCase() === "cancelled";
}

/** Customer HTML shown as text, cut to `max` characters with an ellipsis. */
export function truncateText(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
