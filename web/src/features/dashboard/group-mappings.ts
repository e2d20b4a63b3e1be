/**
 * @module Mappings whose URLs are the same after `normalizeUrl` are one row on the dashboard: the newest
 * mapping of the group, carrying the request and delivery counts of the whole group.
 */
import { normalizeUrl } from "../../../../worker/contract/normalize-url";
import type { Mapping } from "../../../../worker/contract/responses";

function isNewer(a: Mapping, b: Mapping): boolean {
  const byDate = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  return byDate !== 0 ? byDate > 0 : a.id > b.id;
}

/** One mapping per normalised URL (the newest), with counts summed over the group; newest groups first. */
export function groupMappings(mappings: readonly Mapping[]): Mapping[] {
  const groups = new Map<string, Mapping>();
  for (const mapping of mappings) {
    const key = normalizeUrl(mapping.url);
    const current = groups.get(key);
    if (!current) {
      groups.set(key, { ...mapping });
      continue;
    }
    const newest = isNewer(mapping, current) ? mapping : current;
    groups.set(key, {
      ...newest,
      totalRequests: current.totalRequests + mapping.totalRequests,
      contentDeliveryCount: current.contentDeliveryCount + mapping.contentDeliveryCount,
    });
  }
  return [...groups.values()].sort((a, b) => (isNewer(a, b) ? -1 : isNewer(b, a) ? 1 : 0));
}
