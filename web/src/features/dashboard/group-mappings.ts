/**
 * @module Mappings whose URLs are the same after `normalizeUrl` are one row on the dashboard: the newest
 * mapping of the group, carrying the request and delivery counts of the whole group.
 */
import { normalizeUrl } from "../../../../worker/contract/normalize-url";
import type { Mapping } from "../../../../worker/contract/responses";
import { groupMappingsByUrl } from "@/lib/group-mappings";

/** One mapping per normalised URL (the newest), with counts summed over the group; newest groups first. */
export function groupMappings(mappings: readonly Mapping[]): Mapping[] {
  return groupMappingsByUrl(mappings, normalizeUrl).map(
    ({ mappings: [newest], totalRequests, contentDeliveryCount }) => ({
      ...newest!,
      totalRequests,
      contentDeliveryCount,
    }),
  );
}
