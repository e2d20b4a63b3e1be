/** @module The overview's search and sorting (SPEC.md §2 "Admin users screen"), as pure functions. */
import type { AdminUser } from "../../../../worker/contract/responses";

/** The users whose email contains `term`, ignoring case; all of them for a blank term. */
export function searchUsers(users: readonly AdminUser[], term: string): AdminUser[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return [...users];
  return users.filter((user) => user.email.toLowerCase().includes(needle));
}

export type UserSortField = "email" | "totalRequests" | "requestLimit";
export type SortDirection = "asc" | "desc";
export interface UserSort {
  field: UserSortField;
  direction: SortDirection;
}

/** No request limit (null) is unlimited, so it sorts above every number. */
const sortValue = (user: AdminUser, field: UserSortField): string | number =>
  field === "email"
    ? user.email.toLowerCase()
    : field === "requestLimit"
      ? (user.requestLimit ?? Infinity)
      : user.totalRequests;

/** The users ordered by `sort` (stable); in the server's order (newest first) without one. */
export function sortUsers(users: readonly AdminUser[], sort: UserSort | null): AdminUser[] {
  if (!sort) return [...users];
  const sign = sort.direction === "asc" ? 1 : -1;
  return [...users].sort((a, b) => {
    const x = sortValue(a, sort.field);
    const y = sortValue(b, sort.field);
    return x < y ? -sign : x > y ? sign : 0;
  });
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
