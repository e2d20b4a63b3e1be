/**
 * @module What a change's success toast says under its title: what happened to the customer's pages, and by when
 * every location shows it (the answer's delivery headers, worker/delivery/delivery-status.ts; docs/scaling.md). A
 * draft, a schedule and a removal never read "Live now" (issue 25).
 */
import { format, parseISO } from "date-fns";
import type { Mapping } from "#contract/responses";
import { formatDayTime } from "./format-date";

/**
 * Said when a change is saved but not delivered yet (the Worker's `DELIVERY_PENDING_HEADER`): the delivery store
 * refused the write and its repairs retry it.
 */
export const DELIVERY_PENDING_MESSAGE = "Saved, but not live yet: delivery will take it over automatically.";

export const SAVED_AS_DRAFT = "Saved as draft: not delivered until published.";
export const REMOVED_WHILE_NOT_LIVE = "It was not live, so your pages do not change.";

/** What a change's answer says of its delivery. */
export interface DeliveryStatus {
  deliveryPending: boolean;
  /** When every location serves the change (ISO 8601); null when it is pending or the answer does not say. */
  everywhereBy: string | null;
}

/** The time every location has the change, in the browser's time. */
const everywhere = (iso: string) => format(parseISO(iso), "HH:mm:ss");

/** A setting or a bulk change that applies at once: live everywhere by a time, or the pending note. */
export function deliveryNote({ deliveryPending, everywhereBy }: DeliveryStatus): string | undefined {
  if (deliveryPending) return DELIVERY_PENDING_MESSAGE;
  return everywhereBy ? `Live now; served everywhere by ${everywhere(everywhereBy)}.` : undefined;
}

/** Many mappings at once (an import): applied everywhere by a time; its drafts stay drafts. */
export function appliedNote({ deliveryPending, everywhereBy }: DeliveryStatus): string | undefined {
  if (deliveryPending) return DELIVERY_PENDING_MESSAGE;
  return everywhereBy ? `Applied everywhere by ${everywhere(everywhereBy)}.` : undefined;
}

/** A mapping saved (added, edited, restored, published): a draft, scheduled, or live, as the answer says it is. */
export function mappingNote(
  mapping: Pick<Mapping, "publishedAt" | "publishAt" | "unpublishAt">,
  status: DeliveryStatus,
): string | undefined {
  if (!mapping.publishedAt) {
    return mapping.publishAt ? `Saved as draft. Goes live at ${formatDayTime(mapping.publishAt)}.` : SAVED_AS_DRAFT;
  }
  const live = deliveryNote(status);
  if (!live || !mapping.unpublishAt) return live;
  return `${live} Ends at ${formatDayTime(mapping.unpublishAt)}.`;
}

/**
 * A mapping taken off the customer's pages (removed or unpublished): gone from every location by a time. `wasLive`:
 * it was delivered before; `olderTakesOver`: an older published mapping of the URL may be delivered instead.
 */
export function removalNote(
  { deliveryPending, everywhereBy }: DeliveryStatus,
  { wasLive, olderTakesOver = false }: { wasLive: boolean; olderTakesOver?: boolean },
): string | undefined {
  if (!wasLive) return REMOVED_WHILE_NOT_LIVE;
  if (deliveryPending) return DELIVERY_PENDING_MESSAGE;
  if (!everywhereBy) return undefined;
  const removed = `Removed from your pages by ${everywhere(everywhereBy)}.`;
  return olderTakesOver ? `${removed} The URL's older mappings stay: a published one shows instead.` : removed;
}
