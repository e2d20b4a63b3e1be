/**
 * @module What the Worker knows of a visitor as it answers (docs/audiences.md, "What a visitor's attributes are read
 * from"): all from the request itself, nothing stored or looked up.
 */
import type { AudienceAttributes, Device, VisitorKind } from "#contract/audiences";
import { classifyReferrer } from "#contract/referrers";

/** Cloudflare's country codes that name no country: unknown, and Tor. */
const NO_COUNTRY = new Set(["XX", "T1"]);
const TABLET = /iPad|Tablet|PlayBook|Silk|Kindle/i;
const MOBILE = /Mobi|iPhone|iPod|Android|Windows Phone|BlackBerry|Opera Mini/i;
/** Accept-Language entries read at most: a browser sends a handful. */
const LANGUAGES_READ = 20;

/** Tablets first (an Android tablet says "Android" without "Mobile"), then phones; a client hint of ?1 is a phone. */
export function deviceOf(userAgent: string | null, mobileHint: string | null): Device {
  if (mobileHint === "?1") return "mobile";
  const ua = userAgent ?? "";
  if (TABLET.test(ua) || (/Android/i.test(ua) && !/Mobile/i.test(ua))) return "tablet";
  return MOBILE.test(ua) ? "mobile" : "desktop";
}

/** The most preferred tag of an `Accept-Language` header, lower case (the first of equal weights). */
export function preferredLanguage(header: string | null): string | undefined {
  let best: { tag: string; q: number } | undefined;
  for (const part of (header ?? "").split(",", LANGUAGES_READ)) {
    const [tag, ...params] = part.trim().split(";");
    if (!tag || tag === "*") continue;
    const qParam = params.find((p) => p.trim().startsWith("q="));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    if (Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { tag: tag.toLowerCase(), q };
  }
  return best?.tag;
}

function countryOf(request: Request): string | undefined {
  const cf = request.cf as { country?: string } | undefined;
  const country = (request.headers.get("CF-IPCountry") ?? cf?.country)?.toUpperCase();
  return country && !NO_COUNTRY.has(country) ? country : undefined;
}

function pageQuery(pageUrl: string): { query: URLSearchParams; host: string } {
  try {
    const url = new URL(pageUrl);
    return { query: url.searchParams, host: url.hostname };
  } catch {
    return { query: new URLSearchParams(), host: "" };
  }
}

/**
 * A visitor's attributes: `pageUrl` as the page has it (before tracking parameters are dropped), `referrer` the
 * page's `document.referrer` (snippet) or the `Referer` (edge), `visitor` whether their id is new.
 */
export function audienceAttributes(
  request: Request,
  pageUrl: string,
  referrer: string | null | undefined,
  visitor: VisitorKind,
): AudienceAttributes {
  const { query, host } = pageQuery(pageUrl);
  const cf = request.cf as { continent?: string } | undefined;
  const language = preferredLanguage(request.headers.get("Accept-Language"));
  const country = countryOf(request);
  return {
    ...(country ? { country } : {}),
    ...(cf?.continent ? { continent: cf.continent } : {}),
    device: deviceOf(request.headers.get("User-Agent"), request.headers.get("Sec-CH-UA-Mobile")),
    referrer: classifyReferrer(referrer, host),
    query,
    visitor,
    ...(language ? { language } : {}),
  };
}
