/**
 * @module Edge delivery: a request that arrives for an edge website's hostname is that website's traffic. It is
 * proxied to the website's origin and, when the answer is a page (GET, 2xx, text/html), the mapped content is
 * streamed into it with HTMLRewriter where the mapping's placement says, inside the container the snippet uses,
 * and its SEO fields into <head> (edge-rewrite.ts); the page view is counted as the content endpoint counts it.
 * Everything else passes through as the origin answered it (status, headers, cookies, redirects, errors, other
 * types, HEAD, POST), streamed. A page without content, or of a customer who is not served, is the origin's answer
 * itself, byte for byte. A preview link's page (preview.ts) gets its mapping's current content, uncounted and
 * uncached.
 *
 * Runs before every other middleware, so that the product's security headers and routes never touch a customer's
 * traffic; requests for the product's own hosts (PUBLIC_ORIGIN, DELIVERY_ORIGIN, IP addresses, localhost) never
 * look a hostname up, nor do Cloudflare's own `*.workers.dev` names.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv, Env } from "../env";
import { visitorKey } from "../http/client-info";
import { deliveryHost, publicHost } from "../http/origin";
import { lookupContent } from "./content-route";
import { readEdgeHost, type EdgeHost } from "./edge-hosts";
import { countPageView } from "./page-view";
import { asksForPreview, previewDelivery, withoutPreview } from "./preview";
import { withContent } from "./edge-rewrite";

/** Set on every request to an origin: one that comes back to us is a loop (an origin pointing at the Worker). */
export const EDGE_LOOP_HEADER = "X-Dynamic-Content-Edge";
/** How long the origin may take to answer (its headers; the body streams as fast as it comes). */
export const ORIGIN_TIMEOUT_MS = 30_000;

/** Request headers that describe the hop to us, not the visitor's request: the origin gets its own. */
const HOP_HEADERS = ["host", "cf-connecting-ip", "cf-ray", "cf-visitor", "cf-ipcountry", "cdn-loop", "x-real-ip"];

const IP_OR_LOCAL = /^(\d+\.\d+\.\d+\.\d+|\[.*\]|localhost|.*\.localhost)$/;

/** The hostname a request is for, as websites are named (no port, no `www.`), or null for the product's own. */
export function websiteHostname(env: Env, url: URL): string | null {
  const hostname = url.hostname.toLowerCase().replace(/\.$/, "");
  if (IP_OR_LOCAL.test(hostname) || !hostname.includes(".") || hostname.endsWith(".workers.dev")) return null;
  if (url.host === publicHost(env) || url.host === deliveryHost(env)) return null;
  return hostname.replace(/^www\./, "");
}

const plainAnswer = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/** The visitor's request as the origin gets it: same method, path, query, headers and body; redirects not followed. */
function originRequest(request: Request, url: URL, origin: string): Request {
  const headers = new Headers(request.headers);
  for (const name of HOP_HEADERS) headers.delete(name);
  headers.set(EDGE_LOOP_HEADER, "1");
  headers.set("X-Forwarded-Host", url.host);
  headers.set("X-Forwarded-Proto", url.protocol.slice(0, -1));
  const visitorIp = request.headers.get("CF-Connecting-IP");
  if (visitorIp) headers.set("X-Forwarded-For", visitorIp);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(new URL(url.pathname + url.search, origin), {
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

const isPage = (answer: Response) =>
  answer.status >= 200 &&
  answer.status < 300 &&
  (answer.headers.get("Content-Type") ?? "").toLowerCase().startsWith("text/html");

/** A page with a preview's content: for the browser that asked only, never kept by a cache. */
function uncached(page: Response): Response {
  const response = new Response(page.body, page);
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

async function proxy(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  url: URL,
  site: EdgeHost,
): Promise<Response> {
  if (request.headers.has(EDGE_LOOP_HEADER)) {
    return plainAnswer(508, "This website's origin points back at Dynamic Content: set its origin to the real server.");
  }
  const pageUrl = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  const visitor = visitorKey(request.headers.get("CF-Connecting-IP") ?? undefined);
  // A preview link (preview.ts) shows its mapping's current content; the origin is asked for the page without it.
  const preview = asksForPreview(pageUrl);
  const content = () =>
    preview
      ? previewDelivery(env, site.userId, pageUrl).then((match) => ({ serving: true, url: pageUrl, match }))
      : lookupContent(env, site.userId, pageUrl, Date.now(), visitor);
  // For a page, the budget and the content are looked up while the origin answers: no added round trip.
  const lookups = asksForPage(request)
    ? Promise.all([env.CONTENT_VISITOR_LIMITER.limit({ key: `${site.userId} ${visitor}` }), content()])
    : null;
  lookups?.catch(() => undefined);
  let answer: Response;
  try {
    answer = await fetch(originRequest(request, preview ? new URL(withoutPreview(url.href)) : url, site.origin));
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === "TimeoutError";
    console.error(`Edge origin ${site.origin} for ${url.host} failed`, err);
    return timedOut
      ? plainAnswer(504, "This website's server did not answer in time. Please try again in a moment.")
      : plainAnswer(502, "This website's server could not be reached. Please try again in a moment.");
  }
  if (!lookups || !isPage(answer)) return answer;
  let found: Awaited<typeof lookups>;
  try {
    found = await lookups;
  } catch (err) {
    // The page still reaches the visitor, as the origin sent it: delivery must never break the customer's site.
    console.error(`Edge content lookup for ${url.host} failed`, err);
    return answer;
  }
  const [budget, { serving, url: viewedUrl, match }] = found;
  if (!budget.success || !serving) return answer;
  if (!preview) countPageView(env, ctx, { userId: site.userId, url: viewedUrl, match, request });
  if (!match) return answer;
  try {
    return preview ? uncached(withContent(answer, match)) : withContent(answer, match);
  } catch (err) {
    // A placement HTMLRewriter refuses (contract/placement.ts admits none): the page as the origin sent it.
    console.error(`Edge placement for ${url.host} failed`, err);
    return answer;
  }
}

export const edgeDelivery = createMiddleware<AppEnv>(async (c, next) => {
  const url = new URL(c.req.url);
  const hostname = websiteHostname(c.env, url);
  let site: EdgeHost | null = null;
  try {
    site = hostname ? await readEdgeHost(c.env, hostname) : null;
  } catch (err) {
    console.error(`Edge website lookup for ${hostname} failed`, err);
  }
  if (!site) return next();
  return proxy(c.req.raw, c.env, c.executionCtx, url, site);
});
