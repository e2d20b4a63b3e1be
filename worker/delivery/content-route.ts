/**
 * @module The hot path: `GET /api/content?u=<user id>&url=<page URL>` answers the HTML mapped to that page, or
 * 204. The visitor's budget at this customer (Rate Limiting binding), then the customer's state and the URL's
 * entry from the delivery store (store.ts: at most two small KV reads, in parallel and memoised, no D1), and the
 * analytics message is sent after the answer, in `waitUntil`; the consumer counts it only on the customer's own
 * websites.
 */
import { Hono } from "hono";
import { normalizeUrl } from "#contract/normalize-url";
import { withoutTrackingParameters } from "#contract/url-rules";
import type { AppEnv, Env } from "../env";
import { visitorKey } from "../http/client-info";
import { isUserId } from "../lib/ids";
import { hostOf } from "#contract/normalize-url";
import { countPageView } from "./page-view";
import { asksForPreview, previewDelivery } from "./preview";
import { headElements, type HeadElement } from "./seo-head";
import { isServing, lookupDelivery, type DeliveredMapping } from "./store";

export const CORS_HEADERS = { "Access-Control-Allow-Origin": "*" };
export const NO_CONTENT_HEADERS = { ...CORS_HEADERS, "Cache-Control": "no-store" };
/**
 * The customer's HTML travels as text: the snippet inserts it into the customer's page, and a browser that opens
 * this URL directly shows it as text on our origin instead of running it (with `nosniff` and the sandboxing CSP
 * of http/security-headers.ts).
 */
export const CONTENT_HEADERS = { ...NO_CONTENT_HEADERS, "Content-Type": "text/plain; charset=utf-8" };

export interface ContentLookup {
  /** False for unknown and inactive customers and past a delivery limit: nothing is delivered or counted. */
  serving: boolean;
  /** The page URL without its hash and tracking parameters. */
  url: string;
  match: DeliveredMapping | undefined;
  /** The page is on one of the customer's edge websites: the edge proxy counts its first loads. */
  onEdgeWebsite: boolean;
}

/** Finds what to deliver for a page: the customer's state, the URL without its hash, the mapping. */
export async function lookupContent(
  env: Env,
  userId: string,
  pageUrl: string,
  now = Date.now(),
  visitor?: string,
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
    match: match ?? undefined,
    onEdgeWebsite: state.edgeHosts?.includes(hostOf(normalized)) ?? false,
  };
}

/**
 * What snippet.js gets with `format=json` (docs/api.md): short keys, ready for the DOM, since every byte of the
 * snippet that reads them is paid for on every page. `h` the HTML; `p` and `s` where it goes (an
 * `insertAdjacentElement` position or "replace", on the first element selector `s` names; absent: first in
 * <body>); `t` the title; `e` the head elements to set; `j` the JSON-LD's text.
 */
export interface SnippetAnswer {
  h: string;
  p?: "beforebegin" | "afterend" | "afterbegin" | "replace";
  s?: string;
  t?: string;
  e?: HeadElement[];
  j?: string;
}

const DOM_POSITIONS = { before: "beforebegin", after: "afterend", inside: "afterbegin", replace: "replace" } as const;

export function snippetAnswer({ html, placement, seo }: DeliveredMapping): SnippetAnswer {
  const elements = seo ? headElements(seo) : [];
  return {
    h: html,
    ...(placement && placement.position !== "body-start"
      ? { p: DOM_POSITIONS[placement.position], s: placement.selector }
      : {}),
    ...(seo?.title ? { t: seo.title } : {}),
    ...(elements.length > 0 ? { e: elements } : {}),
    ...(seo?.jsonLd === undefined ? {} : { j: JSON.stringify(seo.jsonLd) }),
  };
}

/** SPEC.md's answer: the HTML as text, or 204; with `json`, the snippet's (`SnippetAnswer`). */
export function contentResponse(match: DeliveredMapping | undefined, json = false): Response {
  if (!match) return new Response(null, { status: 204, headers: NO_CONTENT_HEADERS });
  if (json) {
    return new Response(JSON.stringify(snippetAnswer(match)), {
      headers: { ...NO_CONTENT_HEADERS, "Content-Type": "application/json; charset=utf-8" },
    });
  }
  return new Response(match.html, { headers: CONTENT_HEADERS });
}

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
      // read is spent only within the visitor's budget.
      const budget = await c.env.CONTENT_VISITOR_LIMITER.limit({ key: `${userId} ${visitor}` });
      return contentResponse(budget.success ? await previewDelivery(c.env, userId, pageUrl) : undefined, json);
    }
    // One machine cannot spend a customer's quota: past its budget a visitor gets nothing, and nothing counts.
    // The budget and the lookup are asked at once, so the budget adds no round trip to a page view.
    const [budget, { serving, url, match, onEdgeWebsite }] = await Promise.all([
      c.env.CONTENT_VISITOR_LIMITER.limit({ key: `${userId} ${visitor}` }),
      lookupContent(c.env, userId, pageUrl, Date.now(), visitor),
    ]);
    if (!budget.success || !serving) return contentResponse(undefined);

    // On an edge website the proxy counted the page load; the snippet's own requests count after navigations.
    if (!onEdgeWebsite || c.req.query("nav") === "1") {
      countPageView(c.env, c.executionCtx, { userId, url, match, request: c.req.raw, visitor });
    }
    return contentResponse(match, json);
  });
