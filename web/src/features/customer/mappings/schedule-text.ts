/** @module A mapping's pending schedule as the table says it: "Goes live in 3 hours", "Ends in 2 days". */
import { formatDistanceStrict, parseISO } from "date-fns";
import type { Mapping } from "#contract/responses";

/** The next thing the minute cron will do to the mapping, or null when nothing is scheduled. */
export function scheduleText(mapping: Pick<Mapping, "publishAt" | "unpublishAt">, now = new Date()): string | null {
  const when = (iso: string) => {
    const at = parseISO(iso);
    return at <= now ? "any moment" : `in ${formatDistanceStrict(at, now)}`;
  };
  if (mapping.publishAt) return `Goes live ${when(mapping.publishAt)}`;
  if (mapping.unpublishAt) return `Ends ${when(mapping.unpublishAt)}`;
  return null;
}
