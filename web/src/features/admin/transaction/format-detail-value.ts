/** @module How a transaction detail field is shown (SPEC.md §2 "Transaction detail"). */
import { format, isValid, parseISO } from "date-fns";

export const EMPTY_VALUE = "-";

/**
 * '-' for an empty value; a field whose name contains 'date' (any case) as 'dd.MM.yyyy HH:mm' when its value
 * is an ISO date, else as it is; anything else as text.
 */
export function formatDetailValue(field: string, value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || String(value).trim() === "") return EMPTY_VALUE;
  if (field.toLowerCase().includes("date") && typeof value === "string") {
    const date = parseISO(value);
    return isValid(date) ? format(date, "dd.MM.yyyy HH:mm") : value;
  }
  return String(value);
}

/** SPEC.md §4: profile status Cancelled (any case) marks a cancelled subscription. */
export const isCancelledProfile = (profileStatus: string | null | undefined) =>
  profileStatus?.trim().toLowerCase() === "cancelled";
