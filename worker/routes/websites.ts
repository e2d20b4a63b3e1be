/**
 * @module A customer's websites as delivery targets: `GET /api/websites` lists them with their origin and mode,
 * `PUT /api/websites/{hostname}` sets one up or changes it. An edge website's traffic is proxied by the Worker
 * (delivery/edge-proxy.ts) once its hostname is routed to it (docs/edge-delivery.md).
 */
import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import { formatNumber } from "../contract/input-caps";
import type { Website } from "../contract/responses";
import { plainListQuery, websiteBody, websiteParam } from "../contract/schemas";
import { createDb } from "../db/client";
import { websiteHostname } from "../delivery/edge-proxy";
import { syncEdgeHost } from "../delivery/sync";
import { isDevelopment, type AppEnv, type Env } from "../env";
import { reportDelivery } from "../http/delivery-status";
import { badRequest, conflict } from "../http/errors";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { claimWebsite, countWebsites, listWebsites, websiteAt } from "../models/websites";

/** Websites per customer: far above any plan's website limit, a cap on what one account can make us store. */
export const WEBSITES_PER_CUSTOMER = 1_000;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/;
const IP_ADDRESS = /^(\d+\.\d+\.\d+\.\d+|\[.*\])$/;

/** Refuses what would make the Worker proxy to itself or, outside development, to an address rather than a name. */
function checkTarget(env: Env, requestUrl: string, hostname: string, origin: string) {
  const own = new URL(requestUrl);
  if (
    websiteHostname(env, new URL(`https://${hostname}`)) === null ||
    hostname === own.hostname.replace(/^www\./, "")
  ) {
    throw badRequest(`${hostname} is Dynamic Content's own hostname and cannot be a customer's website`);
  }
  const target = new URL(origin);
  const targetHost = target.hostname.replace(/^www\./, "");
  if (targetHost === hostname || target.host === own.host) {
    throw badRequest("Origin must be the server that serves the website, not the website's own hostname");
  }
  const isAddress = IP_ADDRESS.test(target.hostname) || LOOPBACK.test(target.hostname);
  // Locally the customer's site is a server on this machine (npm start, the end-to-end tests).
  if (isAddress && !(isDevelopment(env) && LOOPBACK.test(target.hostname))) {
    throw badRequest("Origin must be a hostname such as https://origin.shop.example, not an IP address");
  }
}

export const websiteRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", validate("query", plainListQuery), async (c) =>
    pageResponse(c, await listWebsites(createDb(c.env.DB), c.var.user.id, c.req.valid("query"))),
  )
  .put("/:hostname", validate("param", websiteParam), validate("json", websiteBody), async (c) => {
    const { hostname } = c.req.valid("param");
    const settings = c.req.valid("json");
    checkTarget(c.env, c.req.url, hostname, settings.origin);
    const db = createDb(c.env.DB);
    const existing = await websiteAt(db, hostname);
    if (existing && existing.userId !== c.var.user.id) throw conflict(`${hostname} belongs to another account`);
    if (!existing && (await countWebsites(db, c.var.user.id)) >= WEBSITES_PER_CUSTOMER) {
      throw badRequest(`An account can have at most ${formatNumber(WEBSITES_PER_CUSTOMER)} websites`);
    }
    const claimed = await claimWebsite(db, c.var.user.id, hostname, settings);
    // Another account took the hostname between the two statements.
    if (!claimed) throw conflict(`${hostname} belongs to another account`);
    reportDelivery(c, await syncEdgeHost(c.env, c.var.user.id, hostname));
    return c.json<Website>(claimed.website, claimed.created ? 201 : 200);
  });
