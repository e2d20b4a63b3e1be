/** @module The date formats of SPEC.md §9 for ISO strings from the API; a missing date shows '-'. */
import { format, isValid, parseISO } from "date-fns";

function formatIso(iso: string | null | undefined, pattern: string): string {
  if (!iso) return "-";
  const date = parseISO(iso);
  return isValid(date) ? format(date, pattern) : "-";
}

/** 'MMM d, yyyy', e.g. "Mar 5, 2025". */
export const formatDay = (iso: string | null | undefined) => formatIso(iso, "MMM d, yyyy");

/** 'MMM d, yyyy HH:mm', e.g. "Mar 5, 2025 14:07". */
export const formatDayTime = (iso: string | null | undefined) => formatIso(iso, "MMM d, yyyy HH:mm");

/** 'dd.MM.yyyy', e.g. "05.03.2025" (German screens). */
export const formatGermanDay = (iso: string | null | undefined) => formatIso(iso, "dd.MM.yyyy");

/** A period as 'dd.MM.yyyy – dd.MM.yyyy'. */
export const formatGermanPeriod = (start: string | null | undefined, end: string | null | undefined) =>
  `${formatGermanDay(start)} – ${formatGermanDay(end)}`;

/** 'dd.MM.yyyy HH:mm', e.g. "05.03.2025 14:07" (admin and German screens). */
export const formatGermanDayTime = (iso: string | null | undefined) => formatIso(iso, "dd.MM.yyyy HH:mm");
