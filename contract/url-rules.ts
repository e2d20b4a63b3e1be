/**
 * @module URL rules: how a page URL finds its mapping, the same in every path (the snippet's `/api/content`, the
 * edge proxy, the dashboard's tester), documented in docs/url-rules.md.
 *
 * 1. Tracking parameters are not part of a page's address: `utm_*`, `gclid`, `fbclid`, `msclkid` and the others in
 *    TRACKING_PARAMETERS are dropped before SPEC.md's normalisation (normalize-url.ts), from mappings' URLs and
 *    visitors' alike, so `/offer?utm_source=newsletter` is `/offer`.
 * 2. A mapping matches its exact (normalised) URL, or, when its URL ends in `/*`, every URL at or below that path:
 *    `shop.example/blog/*` matches `shop.example/blog`, `shop.example/blog/a/b` and `shop.example/blog?page=2`.
 * 3. Precedence: the exact match first, then the longest matching prefix; among mappings of one URL or prefix, the
 *    newest published.
 */

/** Parameter names ignored in every URL; an entry ending in `*` is a name prefix. */
export const TRACKING_PARAMETERS = [
  "utm_*",
  "gclid",
  "gclsrc",
  "gbraid",
  "wbraid",
  "dclid",
  "fbclid",
  "msclkid",
  "twclid",
  "ttclid",
  "li_fat_id",
  "mc_cid",
  "mc_eid",
  "_ga",
  "_gl",
  "yclid",
  "igshid",
] as const;

/** A prefix mapping's URL ends in this; what precedes it is the path it covers. */
export const PREFIX_SUFFIX = "/*";

/** The deepest path a prefix may name (host and 19 path segments), so that a lookup probes at most this many. */
export const PREFIX_MAX_DEPTH = 20;

export const MATCH_KINDS = ["exact", "prefix"] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

export const PREFIX_WITHOUT_SUFFIX = "A prefix mapping's URL must end in /* (such as https://shop.example/blog/*)";
export const EXACT_WITH_SUFFIX = 'An exact mapping\'s URL cannot end in /*: use "match": "prefix"';
export const PREFIX_WITH_QUERY = "A prefix mapping's URL cannot have a query";
export const PREFIX_TOO_DEEP = `A prefix can name at most ${PREFIX_MAX_DEPTH} levels (the host and ${PREFIX_MAX_DEPTH - 1} path segments)`;

/** Whether a parameter name is one of `rules` (an entry ending in `*` is a name prefix), ignoring case. */
function matchesRule(name: string, rules: readonly string[]): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // A malformed escape is kept as written.
  }
  const lower = decoded.toLowerCase();
  return rules.some((rule) => {
    const r = rule.toLowerCase();
    return r.endsWith("*") ? lower.startsWith(r.slice(0, -1)) : lower === r;
  });
}

/**
 * The URL without its tracking parameters (TRACKING_PARAMETERS and the customer's own, `extra`); everything else
 * exactly as written (order, encoding, the hash), so that URLs without them are untouched.
 */
export function withoutTrackingParameters(url: string, extra: readonly string[] = []): string {
  const queryStart = url.indexOf("?");
  if (queryStart < 0) return url;
  const hashStart = url.indexOf("#", queryStart);
  const end = hashStart < 0 ? url.length : hashStart;
  const kept = url
    .slice(queryStart + 1, end)
    .split("&")
    .filter((part) => {
      const name = part.split("=", 1)[0]!;
      return part !== "" && !matchesRule(name, TRACKING_PARAMETERS) && !matchesRule(name, extra);
    });
  return url.slice(0, queryStart) + (kept.length > 0 ? `?${kept.join("&")}` : "") + url.slice(end);
}

/** A customer's own list: at most this many names. */
export const IGNORED_PARAMETERS_MAX = 50;

/** Whether a normalised mapping URL is a prefix (ends in `/*`). */
export const isPrefixUrl = (normalizedUrl: string) => normalizedUrl.endsWith(PREFIX_SUFFIX);

export const matchKindOf = (normalizedUrl: string): MatchKind => (isPrefixUrl(normalizedUrl) ? "prefix" : "exact");

/**
 * What is wrong with a mapping's URL for the match asked for (absent: as the URL says), or null. Takes the
 * normalised URL.
 */
export function matchProblem(normalizedUrl: string, match: MatchKind | undefined): string | null {
  const kind = matchKindOf(normalizedUrl);
  if (match === "prefix" && kind !== "prefix") return PREFIX_WITHOUT_SUFFIX;
  if (match === "exact" && kind === "prefix") return EXACT_WITH_SUFFIX;
  if (kind === "prefix" && normalizedUrl.includes("?")) return PREFIX_WITH_QUERY;
  if (kind === "prefix" && prefixDepth(normalizedUrl) > PREFIX_MAX_DEPTH) return PREFIX_TOO_DEEP;
  return null;
}

/** How deep a normalised prefix reaches: `shop.example/*` is 1, `shop.example/blog/*` 2. */
export const prefixDepth = (normalizedPrefix: string) => normalizedPrefix.split("/").length - 1;

/**
 * The prefixes that would match a normalised URL, longest first, among the depths the customer uses (all when
 * not given). `shop.example/blog/a?x=1` → `shop.example/blog/a/*`, `shop.example/blog/*`, `shop.example/*`.
 */
export function prefixCandidates(normalizedUrl: string, depths?: readonly number[]): string[] {
  const path = normalizedUrl.split("?", 1)[0]!.replace(/\/+$/, "");
  const segments = path.split("/");
  const candidates: string[] = [];
  for (let depth = Math.min(segments.length, PREFIX_MAX_DEPTH); depth >= 1; depth--) {
    if (!depths || depths.includes(depth)) candidates.push(segments.slice(0, depth).join("/") + PREFIX_SUFFIX);
  }
  return candidates;
}
