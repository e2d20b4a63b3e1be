/**
 * @module Edge delivery: a request that arrives for a proven edge website's hostname (delivery/host-routing.ts) is
 * that website's traffic. It is proxied to the website's origin and, when the answer is a page (GET, 200,
 * text/html), the mapped content is streamed into it with HTMLRewriter where the mapping's placement says, inside
 * the container the snippet uses, and its SEO fields into <head> (edge-rewrite.ts); the page view is counted as the
 * content endpoint counts it. Everything else passes through as the origin answered it (status, headers, cookies,
 * redirects, errors, other types, HEAD, POST), streamed. A page without content, or of a customer past a limit,
 * is the origin's answer itself, byte for byte (an inactive or deleted customer's hostnames never get here:
 * host-routing.ts answers 421), unless the website has an asset origin: then every HTML answer (200) has its own
 * subresources moved there, with content or without (edge-subresources.ts). A preview link's page (preview.ts) gets
 * its mapping's current content, uncounted and uncached.
 *
 * Only the stored origin is ever fetched: the visitor's path and query are set on it, never resolved against it,
 * so `//host/…` stays on the origin.
 */
import type { Env } from "../env";
import { visitorKey } from "../http/client-info";
import { resolvedTargetProblem } from "../http/outbound-target";
import { hmacSha256Hex } from "../lib/crypto";
import { lookupWithinBudget, withinVisitorBudget, type ContentLookup } from "./content-route";
import type { EdgeHost } from "./edge-hosts";
import { countPageView, countPlacementMiss } from "./page-view";
import { asksForPreview, previewDelivery, withoutPreview } from "./preview";
import { withAssetsFrom, withContent, type AssetsFrom } from "./edge-rewrite";
import { audienceAttributes } from "./audience-attributes";
import type { AudienceAttributes } from "#contract/audiences";
import { exposureOf, servedTo, type Exposure, type Served } from "./variant";
import { VISITOR_COOKIE, VISITOR_ID } from "#contract/experiments";
import {
  AUDIENCE_HEADER,
  audienceHeaderValue,
  datedVisitorId,
  NEW_VISITOR_COOKIE,
  NEW_VISITOR_MS,
  type VisitorKind,
} from "#contract/audiences";
import { isCrawler } from "../lib/crawlers";

/** Set on every request to an origin: one that comes back to us is a loop (an origin pointing at the Worker). */
export const EDGE_LOOP_HEADER = "X-Dynamic-Content-Edge";
/** How long the origin may take to answer (its headers; the body streams as fast as it comes). */
export const ORIGIN_TIMEOUT_MS = 30_000;

/** Request headers that describe the hop to us, not the visitor's request: the origin gets its own. */
const HOP_HEADERS = ["host", "cf-connecting-ip", "cf-ray", "cf-visitor", "cf-ipcountry", "x-real-ip", EDGE_LOOP_HEADER];

const loopMarks = new Map<string, Promise<string>>();

/**
 * The loop header's value: derived from APP_SECRET, so that only a request the Worker itself sent carries it. A
 * visitor who sends the header gets it removed, never a refusal.
 */
function loopMark(env: Env): Promise<string> {
  const secret = env.APP_SECRET ?? "";
  let mark = loopMarks.get(secret);
  if (!mark) {
    mark = hmacSha256Hex(`dynamic-content:edge-loop:${secret}`, "edge");
    loopMarks.set(secret, mark);
  }
  return mark;
}

export const plainAnswer = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });

/**
 * The origin's URL for the visitor's path and query: set on the stored origin, and checked to be on it. Null when
 * it is not (no path the WHATWG parser produces gets there; the check keeps it so).
 */
export function originUrl(origin: string, visitorUrl: URL): URL | null {
  const target = new URL(origin);
  target.pathname = visitorUrl.pathname;
  target.search = visitorUrl.search;
  return target.origin === new URL(origin).origin ? target : null;
}

/** The visitor's request as the origin gets it: same method, path, query, headers and body; redirects not followed. */
function originRequest(request: Request, url: URL, target: URL, mark: string): Request {
  const headers = new Headers(request.headers);
  for (const name of HOP_HEADERS) headers.delete(name);
  headers.set(EDGE_LOOP_HEADER, mark);
  headers.set("X-Forwarded-Host", url.host);
  headers.set("X-Forwarded-Proto", url.protocol.slice(0, -1));
  const visitorIp = request.headers.get("CF-Connecting-IP");
  if (visitorIp) headers.set("X-Forwarded-For", visitorIp);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(target, {
    method: request.method,
    headers,
    body: hasBody ? request.body : null,
    redirect: "manual",
    signal: AbortSignal.timeout(ORIGIN_TIMEOUT_MS),
  });
}

/**
 * Whether the visitor asks for a page to show: a GET, for a document or a frame where the browser says what it
 * fetches for (Sec-Fetch-Dest, sent over HTTPS), else one that accepts HTML (Accept lists text/html, accepts any type,
 * or is absent, as from crawlers and curl). A favicon, a script or a fragment fetched by the page's own code
 * (htmx, Turbo) is not a page view even when the origin answers it with HTML.
 */
function asksForPage(request: Request): boolean {
  if (request.method !== "GET") return false;
  const destination = request.headers.get("Sec-Fetch-Dest");
  if (destination !== null) return PAGE_DESTINATIONS.has(destination);
  const accept = request.headers.get("Accept");
  return accept === null || accept.trim() === "*/*" || accept.includes("text/html");
}

const PAGE_DESTINATIONS = new Set(["document", "iframe", "frame"]);

/** A whole page: a partial answer (206) or one without a body (204) is passed through as it is. */
const isPage = (answer: Response) =>
  answer.status === 200 && (answer.headers.get("Content-Type") ?? "").toLowerCase().startsWith("text/html");

/** A page with a preview's content: for the browser that asked only, never kept by a cache. */
function uncached(page: Response): Response {
  const response = new Response(page.body, page);
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

/** A year: the visitor keeps their variant across visits. */
const VISITOR_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The value of the request's cookie `wanted`, if it has one. */
function cookieOf(request: Request, wanted: string): string | undefined {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === wanted && value) return value;
  }
  return undefined;
}

/** The visitor's id from our first-party cookie on the customer's hostname, if the request has a well-formed one. */
export function visitorCookie(request: Request): string | undefined {
  const value = cookieOf(request, VISITOR_COOKIE);
  return value && VISITOR_ID.test(value) ? value : undefined;
}

/** New without our id cookie, or while the 30-minute cookie set with a fresh id is there (docs/audiences.md). */
export const edgeVisitorKind = (request: Request): VisitorKind =>
  !visitorCookie(request) || cookieOf(request, NEW_VISITOR_COOKIE) ? "new" : "returning";

interface ForThisVisitor {
  /** The id made for a visitor who had none. */
  newVisitorId?: string;
  https: boolean;
  /** The URL chooses by audience: a fresh id comes with the 30-minute cookie that keeps its visitor new. */
  byAudience?: true;
  /** The audience whose mapping answered. */
  audience?: string;
}

/**
 * A page whose content depends on who asks (an experiment's variant, an audience's mapping). A visitor without our
 * cookie gets a new id, kept in a first-party cookie that the snippet on the same page reads too (so both deliver
 * the same variant). The cookies are Secure on an https page only: a browser drops a Secure cookie set over http,
 * and every view of a website served over http would then be a new visitor. Such a page is the visitor's own: no
 * shared cache may keep it.
 */
function forThisVisitor(page: Response, { newVisitorId, https, byAudience, audience }: ForThisVisitor): Response {
  const response = new Response(page.body, page);
  const cookie = (name: string, value: string, maxAgeS: number) =>
    response.headers.append(
      "Set-Cookie",
      `${name}=${value}; Path=/; Max-Age=${maxAgeS}; SameSite=Lax${https ? "; Secure" : ""}`,
    );
  if (newVisitorId) {
    cookie(VISITOR_COOKIE, newVisitorId, VISITOR_COOKIE_MAX_AGE_S);
    if (byAudience) cookie(NEW_VISITOR_COOKIE, "1", NEW_VISITOR_MS / 1000);
  }
  if (audience !== undefined) response.headers.set(AUDIENCE_HEADER, audienceHeaderValue(audience));
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

/**
 * What a page view at the edge serves (delivery/variant.ts) and counts, and the visitor id to keep in our cookie when
 * the view assigned a visitor who had none: every cookieless request gets a fresh id `vid` (made before the lookup,
 * which places it in a holdout), whatever its user agent, kept when an experiment, a holdout or a URL that chooses
 * by audience used it.
 */
function servedAtEdge(
  found: Pick<ContentLookup, "match" | "holdout" | "byAudience">,
  vid: string,
  known: boolean,
  request: Request,
  attributes: () => AudienceAttributes,
): { served?: Served; exposure?: Exposure; newVisitorId?: string } {
  const { match, holdout, byAudience } = found;
  if (!match?.experiment && !holdout && !byAudience) return match ? { served: { content: match } } : {};
  const crawler = isCrawler(request.headers.get("User-Agent"));
  const served = match && servedTo(match, vid, crawler);
  const exposure = exposureOf(served, holdout, vid, crawler, attributes);
  return { ...(served ? { served } : {}), ...(exposure ? { exposure } : {}), ...(known ? {} : { newVisitorId: vid }) };
}

export async function proxyEdgeWebsite(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  url: URL,
  site: EdgeHost,
): Promise<Response> {
  const mark = await loopMark(env);
  if (request.headers.get(EDGE_LOOP_HEADER) === mark) {
    return plainAnswer(508, "This website's origin points back at Dynamic Content: set its origin to the real server.");
  }
  const pageUrl = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  // A preview link (preview.ts) shows its mapping's current content; the origin is asked for the page without it.
  const preview = asksForPreview(pageUrl);
  const target = originUrl(site.origin, preview ? new URL(withoutPreview(url.href)) : url);
  if (!target) return plainAnswer(400, "This address cannot be served.");
  const visitor = visitorKey(request.headers.get("CF-Connecting-IP") ?? undefined);
  // A preview's D1 read is spent only within the visitor's budget, whatever the customer's plan.
  const previewLookup = async (): Promise<
    Pick<ContentLookup, "serving" | "url" | "match" | "holdout" | "byAudience" | "audience">
  > => {
    const allowed = await withinVisitorBudget(env, site.userId, visitor);
    return {
      serving: allowed,
      url: pageUrl,
      match: allowed ? await previewDelivery(env, site.userId, pageUrl) : undefined,
    };
  };
  const known = visitorCookie(request);
  const vid = known ?? datedVisitorId(Date.now(), crypto.randomUUID().replaceAll("-", ""));
  const attributes = () =>
    audienceAttributes(request, pageUrl, request.headers.get("Referer"), edgeVisitorKind(request));
  // For a page, the content (and a metered customer's visitor budget) is looked up while the origin answers: no
  // added round trip.
  const lookups = asksForPage(request)
    ? preview
      ? previewLookup()
      : lookupWithinBudget(env, site.userId, pageUrl, visitor, Date.now(), attributes, vid)
    : null;
  lookups?.catch(() => undefined);
  // What the origin's name resolves to now (kept a minute per isolate): a name turned private is not called.
  const refused = await resolvedTargetProblem(env, target);
  if (refused === "unresolved") {
    return plainAnswer(502, "This website's server could not be looked up. Please try again in a moment.");
  }
  if (refused) {
    console.error(`Edge origin ${site.origin} for ${url.host} refused: ${refused}`);
    return plainAnswer(502, "This website's server is not a public server Dynamic Content may call.");
  }
  let answer: Response;
  try {
    answer = await fetch(originRequest(request, url, target, mark));
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === "TimeoutError";
    console.error(`Edge origin ${site.origin} for ${url.host} failed`, err);
    return timedOut
      ? plainAnswer(504, "This website's server did not answer in time. Please try again in a moment.")
      : plainAnswer(502, "This website's server could not be reached. Please try again in a moment.");
  }
  // The option moves the subresources of every HTML answer, a page view or not: else the lever does nothing.
  const assets: AssetsFrom | undefined =
    site.assetOrigin && request.method !== "HEAD" && isPage(answer)
      ? { page: url, assetOrigin: site.assetOrigin }
      : undefined;
  /** The origin's answer without content: as it came, or with its subresources moved. */
  const asSent = () => (assets ? withAssetsFrom(answer, assets) : answer);
  if (!lookups || !isPage(answer)) return asSent();
  let found: Awaited<typeof lookups>;
  try {
    found = await lookups;
  } catch (err) {
    // The page still reaches the visitor, as the origin sent it: delivery must never break the customer's site.
    console.error(`Edge content lookup for ${url.host} failed`, err);
    return asSent();
  }
  const { serving, url: viewedUrl, match, holdout, audience, byAudience } = found;
  if (!serving) return asSent();
  // A preview shows what its link names (a variant's content included) and assigns nobody.
  const atEdge = preview ? undefined : servedAtEdge(found, vid, known !== undefined, request, attributes);
  if (!preview) {
    const exposure = atEdge?.exposure;
    countPageView(env, ctx, { userId: site.userId, url: viewedUrl, match, request, visitor, exposure });
  }
  const https = url.protocol === "https:";
  // Held out of an audience whose URL has no fallback: the page as the origin sent it, the visitor's id kept.
  if (!match)
    return holdout ? forThisVisitor(asSent(), { newVisitorId: atEdge?.newVisitorId, https, byAudience }) : asSent();
  // A preview's miss is not the visitors': only counted views report one.
  const onMiss = preview
    ? undefined
    : (mappingId: number) => countPlacementMiss(env, ctx, { userId: site.userId, mappingId });
  try {
    if (!atEdge?.served) return uncached(withContent(answer, match, onMiss, assets));
    const { served, newVisitorId } = atEdge;
    const page = withContent(answer, served.content, onMiss, assets);
    if (served.variant === undefined && !holdout && !byAudience) return page;
    return forThisVisitor(page, { newVisitorId, https, byAudience, audience });
  } catch (err) {
    // A placement HTMLRewriter refuses (contract/placement.ts admits none): the page as the origin sent it.
    console.error(`Edge placement for ${url.host} failed`, err);
    return asSent();
  }
}
