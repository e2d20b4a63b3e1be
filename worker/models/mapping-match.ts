/**
 * @module The URL tester (`GET /api/mappings/match?url=`): which of the customer's mappings serves a page and why,
 * or why none does, by the URL rules every delivery path follows (contract/url-rules.ts, docs/url-rules.md). It
 * asks D1 about the URL and its own prefixes only, never the customer's other mappings.
 */
import { normalizeUrl } from "#contract/normalize-url";
import type { MappingMatch } from "#contract/responses";
import { prefixCandidates, withoutTrackingParameters } from "#contract/url-rules";
import type { Db } from "../db/client";
import type { User } from "../db/schema";
import { deliveredMappingsAt, unpublishedMappingAt } from "./delivered-mappings";

export async function explainMatch(
  db: Db,
  user: Pick<User, "id" | "ignoredParameters">,
  pageUrl: string,
): Promise<MappingMatch> {
  const userId = user.id;
  const normalized = normalizeUrl(pageUrl, user.ignoredParameters);
  const withoutHash = pageUrl.split("#", 1)[0]!;
  const tracking =
    withoutTrackingParameters(withoutHash, user.ignoredParameters) !== withoutHash
      ? " Tracking parameters are ignored."
      : "";
  // In precedence order: the exact URL, then its prefixes, longest first.
  const candidates = [normalized, ...prefixCandidates(normalized)];
  const delivered = await deliveredMappingsAt(db, userId, candidates);
  for (const candidate of candidates) {
    const found = delivered.find((d) => d.normalizedUrl === candidate);
    if (!found) continue;
    const reason =
      candidate === normalized
        ? `Exact match: ${normalized} is this mapping's URL, and it is the newest published one there.`
        : `Prefix match: no published mapping has ${normalized} itself, and ${candidate} is the longest prefix ` +
          `of it that has one.`;
    return { mapping: found.mapping, reason: reason + tracking };
  }
  const unpublished = await unpublishedMappingAt(db, userId, candidates);
  const reason = unpublished
    ? `No mapping serves ${normalized}: the mapping for ${unpublished.url} is unpublished.`
    : `No mapping serves ${normalized}: no published mapping has this URL or a prefix of it (such as ` +
      `${candidates.at(-1)}).`;
  return { mapping: null, reason: reason + tracking };
}
