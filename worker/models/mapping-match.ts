/**
 * @module The URL tester (`GET /api/mappings/match?url=`): which of the customer's mappings serves a page and why,
 * or why none does, by the URL rules every delivery path follows (contract/url-rules.ts, docs/url-rules.md), and
 * for a URL with audience mappings, which one a visitor with the given attributes gets (`chooseMapping`, as
 * delivery picks; docs/audiences.md). It asks D1 about the URL and its own prefixes only, never the customer's
 * other mappings.
 */
import { chooseMapping, testedAttributes, type TestedVisitor } from "#contract/audiences";
import { normalizeUrl } from "#contract/normalize-url";
import type { Mapping, MappingMatch } from "#contract/responses";
import { prefixCandidates, withoutTrackingParameters } from "#contract/url-rules";
import type { Db } from "../db/client";
import type { User } from "../db/schema";
import { deliveredInOrderAt, publishedUrlsAmong, unpublishedMappingAt } from "./delivered-mappings";

export async function explainMatch(
  db: Db,
  user: Pick<User, "id" | "ignoredParameters">,
  pageUrl: string,
  visitor: TestedVisitor = {},
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
  const published = new Set(await publishedUrlsAmong(db, userId, candidates));
  const rule = candidates.find((candidate) => published.has(candidate));
  if (rule) {
    const ordered = await deliveredInOrderAt(db, userId, rule);
    const chosen = chooseMapping(ordered, testedAttributes(withoutHash, visitor));
    const audiences = ordered.filter((m) => m.audience !== null).length;
    return {
      mapping: chosen?.mapping ?? null,
      reason: matchReason(normalized, rule, chosen?.mapping, audiences) + tracking,
    };
  }
  const unpublished = await unpublishedMappingAt(db, userId, candidates);
  const reason = unpublished
    ? `No mapping serves ${normalized}: the mapping for ${unpublished.url} is unpublished.`
    : `No mapping serves ${normalized}: no published mapping has this URL or a prefix of it (such as ` +
      `${candidates.at(-1)}).`;
  return { mapping: null, reason: reason + tracking };
}

/** Why the rule's chosen mapping (or none) answers: the URL rule, then, where the rule has audiences, the audience. */
function matchReason(normalized: string, rule: string, chosen: Mapping | undefined, audiences: number): string {
  const exact = rule === normalized;
  const where = exact
    ? `Exact match: ${normalized} is this mapping's URL`
    : `Prefix match: no published mapping has ${normalized} itself, and ${rule} is the longest prefix of it that has one`;
  if (!chosen) {
    return (
      `No mapping serves ${normalized} for this visitor: ${rule} is its URL rule, and the visitor belongs to none ` +
      `of its ${count(audiences)}, and it has no published mapping without an audience.`
    );
  }
  if (chosen.audience) {
    return `${where}; this mapping's audience "${chosen.audience.name}" (priority ${chosen.priority}) is the first there this visitor belongs to.`;
  }
  if (audiences === 0) return exact ? `${where}, and it is the newest published one there.` : `${where}.`;
  return (
    `${where}, and this mapping is the newest published one there without an audience: the visitor belongs to ` +
    `none of its ${count(audiences)}.`
  );
}

const count = (audiences: number) => (audiences === 1 ? "1 audience" : `${audiences} audiences`);
