/**
 * @module The first thing every request meets: whose is the host it arrived for?
 * - the product's own (PUBLIC_ORIGIN, DELIVERY_ORIGIN; locally also localhost at its port): on to the dashboard, the
 *   API and delivery;
 * - a customer's proven edge website (an active claim in edge mode, of an active customer, within their plan's
 *   websites limit): proxied to its origin (edge-proxy.ts) before anything of the product's own touches it;
 * - anything else: `421 Misdirected Request` and nothing of ours, so that no host but ours ever shows the
 *   dashboard, runs the API or delivers content.
 * `/snippet.js` never gets here, whatever the host (edge websites included): a public static asset, answered before
 * the Worker runs (docs/decisions.md "The snippet is a static asset").
 * Without a valid PUBLIC_ORIGIN no host is known to be ours: delivery keeps working (customers' pages must not
 * break) and everything else answers 503 until it is configured.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv, Env } from "../env";
import { notConfigured } from "../http/not-configured";
import { productOrigins, websiteName } from "../http/origin";
import { isOwnRequestHost, isProductHostname } from "../http/own-hosts";
import { visitorKey } from "../http/client-info";
import { readEdgeHost, type EdgeHost } from "./edge-hosts";
import { readState } from "./store";
import { followChanges } from "./change-feed";
import { plainAnswer, proxyEdgeWebsite } from "./edge-proxy";
import { isDeliveryPath } from "#contract/delivery-paths";

/**
 * The proven edge website a request's host is, if it is served: its customer is active and it is among the edge
 * websites their plan allows (their delivery state, memoised like the host entry: no D1 read). Else null (the
 * product's own hostnames are never looked up).
 */
async function edgeWebsiteOf(env: Env, request: Request, url: URL): Promise<EdgeHost | null> {
  if (isProductHostname(env, url.hostname)) return null;
  const hostname = websiteName(url.hostname);
  let site: EdgeHost | null;
  try {
    site = await readEdgeHost(env, hostname);
  } catch (err) {
    console.error(`Edge website lookup for ${hostname} failed`, err);
    return null;
  }
  if (!site) return null;
  try {
    const visitor = visitorKey(request.headers.get("CF-Connecting-IP") ?? undefined);
    const state = await readState(env, site.userId, Date.now(), visitor);
    return state.active && state.edgeHosts?.includes(hostname) ? site : null;
  } catch (err) {
    // A failure of our own lookup never breaks the customer's website.
    console.error(`Reading the state of ${site.userId} for ${hostname} failed; proxied all the same`, err);
    return site;
  }
}

export const misdirected = () => plainAnswer(421, "Misdirected Request: this host is not served here.");

export const routeByHost = createMiddleware<AppEnv>(async (c, next) => {
  const url = new URL(c.req.url);
  const { origins, problem } = productOrigins(c.env);
  if (origins && isOwnRequestHost(c.env, origins, url)) return next();
  const site = await edgeWebsiteOf(c.env, c.req.raw, url);
  if (site) {
    followChanges(c.env, c.executionCtx);
    return proxyEdgeWebsite(c.req.raw, c.env, c.executionCtx, url, site);
  }
  if (origins) return misdirected();
  return isDeliveryPath(c.req.path) ? next() : notConfigured(c, "the product's origin", problem);
});
