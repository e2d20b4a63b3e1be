/**
 * @module The hot path: `GET /api/content?u=<user id>&url=<page URL>` answers the HTML mapped to that page, or
 * 204. The customer's state and the URL's entry from the delivery store (store.ts: at most two small KV reads, in
 * parallel and memoised, no D1), the visitor's budget at this customer (Rate Limiting binding; a higher ceiling when
 * the customer is not metered), and the analytics message is sent after the answer, in `waitUntil`; the consumer
 * counts it only on the customer's own websites.
 */
import { Hono } from "hono";
import { normalizeUrl } from "#contract/normalize-url";
import { withoutTrackingParameters } from "#contract/url-rules";
import { PLACEMENT_DOM_POSITIONS, type PlacementDomPosition } from "#contract/placement";
import type { AppEnv, Env } from "../env";
import { visitorKey } from "../http/client-info";
import { isUserId } from "../lib/ids";
import { hostOf } from "#contract/normalize-url";
import { countPageView, countPlacementMiss } from "./page-view";
import { asksForPreview, previewDelivery } from "./preview";
import { headElements, type HeadElement } from "./seo-head";
import {
  isAudienceEntry,
  isServing,
  lookupDelivery,
  rememberedState,
  type DeliveredEntry,
  type DeliveredMapping,
} from "./store";
import {
  AUDIENCE_HEADER,
  audienceHeaderValue,
  chooseMapping,
  HOLDOUT_ARM,
  visitorKindOf,
  type AudienceAttributes,
} from "#contract/audiences";
import { audienceAttributes } from "./audience-attributes";
import { exposureOf, holdoutArm, servedTo, type HoldoutArm } from "./variant";
import { VARIANT_HEADER, VISITOR_ID } from "#contract/experiments";
import { isCrawler } from "../lib/crawlers";

export const CORS_HEADERS = { "Access-Control-Allow-Origin": "*" };
export const NO_CONTENT_HEADERS = { ...CORS_HEADERS, "Cache-Control": "no-store" };
/**
 * The customer's HTML travels as text: the snippet inserts it into the customer's page, and a browser that opens
 * this URL directly shows it as text on our origin instead of running it (with `nosniff` and the sandboxing CSP
 * of http/security-headers.ts).
 */
export const CONTENT_HEADERS = { ...NO_CONTENT_HEADERS, "Content-Type": "text/plain; charset=utf-8" };

export interface ContentLookup {
  /**
   * False for unknown and inactive customers, past a delivery limit and (`lookupWithinBudget`) past the visitor's
   * budget: nothing is delivered or counted.
   */
  serving: boolean;
  /** The page URL without its hash and tracking parameters. */
  url: string;
  match: DeliveredMapping | undefined;
  /** The name of the audience whose mapping `match` is (docs/audiences.md); absent for everyone's mapping. */
  audience?: string;
  /**
   * The visitor's arm of the chosen audience mapping's holdout (docs/audiences.md, "Holdout"): in the holdout,
   * `match` is the URL's fallback and `audience` absent. Absent without a holdout or a visitor id.
   */
  holdout?: HoldoutArm;
  /** The URL's entry chooses by audience: what it serves depends on who asks. */
  byAudience?: true;
  /** The page is on one of the customer's edge websites: the edge proxy counts its first loads. */
  onEdgeWebsite: boolean;
  /** The customer's page views spend a quota (`CustomerState.unmetered` absent): each visitor has a budget. */
  metered: boolean;
}

/**
 * The mapping a visitor gets from a URL's entry: the entry's one mapping, or the first of its audience mappings
 * whose audience the visitor belongs to, else its fallback (docs/audiences.md). The attributes are read only for
 * an entry with audiences; without them (`attributes` absent) a visitor belongs to none. A visitor whose id `vid`
 * falls in the chosen mapping's holdout gets the fallback (none: nothing); without an id, nobody is held out.
 */
export function chosenFor(
  entry: DeliveredEntry | null,
  attributes: (() => AudienceAttributes) | undefined,
  vid?: string,
): Pick<ContentLookup, "match" | "audience" | "holdout" | "byAudience"> {
  if (!entry) return { match: undefined };
  if (!isAudienceEntry(entry)) return { match: entry };
  const fallback = () => entry.ordered.find((m) => m.audience === null);
  const chosen = attributes ? chooseMapping(entry.ordered, attributes()) : fallback();
  if (!chosen) return { match: undefined, byAudience: true };
  const { audience, ...match } = chosen;
  if (!audience) return { match, byAudience: true };
  const holdout = match.holdout && vid ? holdoutArm(match.mappingId, match.holdout, vid) : undefined;
  if (holdout?.variant === HOLDOUT_ARM) {
    const heldOut = fallback();
    if (!heldOut) return { match: undefined, holdout, byAudience: true };
    const { audience: _none, ...instead } = heldOut;
    return { match: instead, holdout, byAudience: true };
  }
  return { match, audience: audience.name, byAudience: true, ...(holdout ? { holdout } : {}) };
}

/**
 * Finds what to deliver for a page: the customer's state, the URL without its hash, the mapping (chosen by the
 * visitor's `attributes` where the URL has audience mappings).
 */
export async function lookupContent(
  env: Env,
  userId: string,
  pageUrl: string,
  now = Date.now(),
  visitor?: string,
  attributes?: () => AudienceAttributes,
  vid?: string,
): Promise<ContentLookup> {
  // Counted as it is matched: the same page whatever campaign brought the visitor (docs/url-rules.md).
  let url = withoutTrackingParameters(pageUrl.split("#", 1)[0]!);
  let normalized = normalizeUrl(url);
  let { state, match } = await lookupDelivery(env, userId, normalized, now, visitor);
  // The customer's own tracking parameters are known once their state is: drop those too, and look again (the
  // state is memoised by then, so this costs the URL's read alone).
  const own = state.ignoredParameters ?? [];
  if (own.length > 0 && isServing(state, now) && normalizeUrl(url, own) !== normalized) {
    url = withoutTrackingParameters(url, own);
    normalized = normalizeUrl(url);
    ({ state, match } = await lookupDelivery(env, userId, normalized, now, visitor));
  }
  return {
    serving: isServing(state, now),
    url,
    ...chosenFor(match, attributes, vid),
    onEdgeWebsite: state.edgeHosts?.includes(hostOf(normalized)) ?? false,
    metered: !state.unmetered,
  };
}

/**
 * Whether the visitor is within their budget at this customer, per Cloudflare location: 300 requests a minute at a
 * metered customer (wrangler.toml `CONTENT_VISITOR_LIMITER`), so that one machine cannot spend the customer's
 * quota; 3,000 at a customer without limits (`UNMETERED_VISITOR_LIMITER`), so that one machine cannot fill their
 * experiments' and analytics' rows at any speed.
 */
export async function withinVisitorBudget(env: Env, userId: string, visitor: string, metered = true): Promise<boolean> {
  const limiter = metered ? env.CONTENT_VISITOR_LIMITER : env.UNMETERED_VISITOR_LIMITER;
  return (await limiter.limit({ key: `${userId} ${visitor}` })).success;
}

/**
 * `lookupContent`, not serving a visitor past their budget at this customer (`withinVisitorBudget`, whose ceiling
 * depends on whether the customer is metered): asked alongside the lookup when the isolate remembers the customer's
 * state (no added round trip), else once the lookup has read it.
 */
export async function lookupWithinBudget(
  env: Env,
  userId: string,
  pageUrl: string,
  visitor: string,
  now = Date.now(),
  attributes?: () => AudienceAttributes,
  vid?: string,
): Promise<ContentLookup> {
  const known = rememberedState(userId, now);
  const early = known && isServing(known, now) ? { metered: !known.unmetered } : undefined;
  const [budget, found] = await Promise.all([
    early ? withinVisitorBudget(env, userId, visitor, early.metered) : undefined,
    lookupContent(env, userId, pageUrl, now, visitor, attributes, vid),
  ]);
  if (!found.serving) return found;
  const within =
    budget !== undefined && early?.metered === found.metered
      ? budget
      : await withinVisitorBudget(env, userId, visitor, found.metered);
  return within ? found : { ...found, serving: false };
}

/**
 * What snippet.js gets with `format=json` (docs/api.md): short keys, ready for the DOM, since every byte of the
 * snippet that reads them is paid for on every page. `h` the HTML; `p` and `s` where it goes (an
 * `insertAdjacentElement` position or "replace", on the first element selector `s` names; absent: first in
 * <body>); `i` the mapping's id beside `s`, which the snippet sends back as `m` when `s` named nothing (docs/placement.md,
 * "Selector health"); `t` the title; `e` the head elements to set; `j` the JSON-LD's text.
 */
export interface SnippetAnswer {
  h: string;
  /** The experiment's variant this visitor got (docs/experiments.md); absent without an experiment. */
  variant?: string;
  p?: PlacementDomPosition;
  s?: string;
  i?: number;
  t?: string;
  e?: HeadElement[];
  j?: string;
}

export function snippetAnswer({ mappingId, html, placement, seo }: DeliveredMapping): SnippetAnswer {
  const elements = seo ? headElements(seo) : [];
  return {
    h: html,
    ...(placement && placement.position !== "body-start"
      ? { p: PLACEMENT_DOM_POSITIONS[placement.position], s: placement.selector, i: mappingId }
      : {}),
    ...(seo?.title ? { t: seo.title } : {}),
    ...(elements.length > 0 ? { e: elements } : {}),
    ...(seo?.jsonLd === undefined ? {} : { j: JSON.stringify(seo.jsonLd) }),
  };
}

/**
 * SPEC.md's answer: the HTML as text, or 204; with `json`, the snippet's (`SnippetAnswer`). With an experiment's
 * `variant`, the JSON names it and the text carries it as `X-Variant`; with an `audience` (docs/audiences.md),
 * likewise as `audience` and `X-Audience`.
 */
export function contentResponse(
  match: DeliveredMapping | undefined,
  json = false,
  variant?: string,
  audience?: string,
): Response {
  if (!match) return new Response(null, { status: 204, headers: NO_CONTENT_HEADERS });
  if (json) {
    const answer = {
      ...snippetAnswer(match),
      ...(variant === undefined ? {} : { variant }),
      ...(audience === undefined ? {} : { audience }),
    };
    return new Response(JSON.stringify(answer), {
      headers: { ...NO_CONTENT_HEADERS, "Content-Type": "application/json; charset=utf-8" },
    });
  }
  const named: Record<string, string> = {
    ...(variant === undefined ? {} : { [VARIANT_HEADER]: variant }),
    ...(audience === undefined ? {} : { [AUDIENCE_HEADER]: audienceHeaderValue(audience) }),
  };
  // A page's script reads X-Variant and X-Audience across origins only if they are exposed.
  const exposed = Object.keys(named);
  const headers =
    exposed.length === 0
      ? CONTENT_HEADERS
      : { ...CONTENT_HEADERS, ...named, "Access-Control-Expose-Headers": exposed.join(", ") };
  return new Response(match.html, { headers });
}

/** The mapping whose selector named nothing on the visitor's last page (`m`), if well-formed; else ignored, as `vid`. */
const missedMappingOf = (m: string | undefined) => (m && /^[1-9]\d{0,9}$/.test(m) ? Number(m) : undefined);

/** The visitor's random id if the request carries a well-formed one (`vid`). */
export const visitorIdOf = (vid: string | undefined) => (vid && VISITOR_ID.test(vid) ? vid : undefined);

export const contentRoute = new Hono<AppEnv>()
  .options(
    "/",
    () => new Response(null, { status: 204, headers: { ...CORS_HEADERS, "Access-Control-Allow-Methods": "GET" } }),
  )
  .get("/", async (c) => {
    const userId = c.req.query("u");
    const pageUrl = c.req.query("url");
    if (!userId || !pageUrl) {
      return c.json({ error: "Query parameters u (user id) and url are required" }, 400, CORS_HEADERS);
    }
    // A malformed id costs no KV or D1 read: nobody can make us store a state entry for junk.
    if (!isUserId(userId)) return contentResponse(undefined);
    const visitor = visitorKey(c.req.header("CF-Connecting-IP"));
    const json = c.req.query("format") === "json";
    if (asksForPreview(pageUrl)) {
      // A preview link (preview.ts): the mapping's current content to whoever holds it, never counted. Its D1
      // read is spent only within the visitor's budget, whatever the customer's plan.
      const allowed = await withinVisitorBudget(c.env, userId, visitor);
      return contentResponse(allowed ? await previewDelivery(c.env, userId, pageUrl) : undefined, json);
    }
    // One machine cannot spend a metered customer's quota, nor fill anyone's rows: past its budget a visitor gets
    // nothing, and nothing counts.
    const vid = visitorIdOf(c.req.query("vid"));
    const now = Date.now();
    // The snippet's id says when it was made (docs/audiences.md); without an id every visitor is new.
    const attributes = () => audienceAttributes(c.req.raw, pageUrl, c.req.query("r"), visitorKindOf(vid, now));
    const lookup = await lookupWithinBudget(c.env, userId, pageUrl, visitor, now, attributes, vid);
    const { serving, url, match, onEdgeWebsite, audience } = lookup;
    if (!serving) return contentResponse(undefined);
    // Counted without a read: the consumer keeps only a miss of this customer's own mapping.
    const missed = missedMappingOf(c.req.query("m"));
    if (missed !== undefined) countPlacementMiss(c.env, c.executionCtx, { userId, mappingId: missed });
    const crawler = isCrawler(c.req.header("User-Agent"));
    const served = match && servedTo(match, vid, crawler);

    // On an edge website the proxy counted the page load; the snippet's own requests count after navigations.
    if (!onEdgeWebsite || c.req.query("nav") === "1") {
      const exposure = exposureOf(served, lookup.holdout, vid, crawler, attributes);
      countPageView(c.env, c.executionCtx, { userId, url, match, request: c.req.raw, visitor, exposure });
    }
    return contentResponse(served?.content, json, served?.variant, audience);
  });
