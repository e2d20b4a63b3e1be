/**
 * @module Mappings grouped by URL, shared by the dashboards. Each screen says which URLs count as the same
 * through its key function: the customer dashboard uses `normalizeUrl`, the admin console `urlWithoutScheme`.
 */
import type { Mapping } from "../../../worker/contract/responses";

export interface MappingGroup<M extends Mapping = Mapping> {
  /** The URL as the key function gave it; equal for every mapping of the group. */
  key: string;
  /** The group's mappings, newest first. */
  mappings: M[];
  /** Summed over the group. */
  totalRequests: number;
  /** Summed over the group. */
  contentDeliveryCount: number;
}

/** Newer by creation date; the larger id wins a tie. */
export function isNewerMapping(a: Mapping, b: Mapping): boolean {
  const byDate = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  return byDate !== 0 ? byDate > 0 : a.id > b.id;
}

const newestFirst = (a: Mapping, b: Mapping) => (isNewerMapping(a, b) ? -1 : isNewerMapping(b, a) ? 1 : 0);

/** SPEC.md §2 (admin): the URL ignoring case and the http(s):// prefix, nothing else. */
export function urlWithoutScheme(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "");
}

/** The mappings grouped by `keyOf(url)`, counts summed; groups ordered by their newest mapping, newest first. */
export function groupMappingsByUrl<M extends Mapping>(
  mappings: readonly M[],
  keyOf: (url: string) => string,
): MappingGroup<M>[] {
  const groups = new Map<string, MappingGroup<M>>();
  for (const mapping of mappings) {
    const key = keyOf(mapping.url);
    const group = groups.get(key) ?? { key, mappings: [], totalRequests: 0, contentDeliveryCount: 0 };
    group.mappings.push(mapping);
    group.totalRequests += mapping.totalRequests;
    group.contentDeliveryCount += mapping.contentDeliveryCount;
    groups.set(key, group);
  }
  const list = [...groups.values()];
  for (const group of list) group.mappings.sort(newestFirst);
  return list.sort((a, b) => newestFirst(a.mappings[0]!, b.mappings[0]!));
}
