/**
 * @module A customer's websites (docs/edge-delivery.md): `PUT /api/websites/{hostname}` claims one (pending, with
 * the DNS TXT record that proves it) or changes its origin, mode and asset origin; `POST /api/websites/{hostname}/verify` checks
 * the record now (the minute cron checks pending claims too); `GET` lists them or answers one, `GET
 * /api/websites/{hostname}/status` its three steps to going live (websites/website-status.ts); `DELETE` releases
 * one. Only a proven (active) edge website is proxied by the Worker (delivery/host-routing.ts), within the plan's
 * websites limit; a proof by another account takes a hostname over (websites/prove-website.ts).
 */
import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import { throttle } from "../auth/throttle";
import { formatNumber } from "#contract/input-caps";
import type { MessageResponse, Website, WebsiteStatus } from "#contract/responses";
import { plainListQuery, websiteBody, websiteParam } from "#contract/schemas";
import { syncEdgeHost } from "../delivery/sync";
import type { AppEnv, Env } from "../env";
import { reportDelivery } from "../delivery/delivery-status";
import { badRequest, conflict, notFound } from "../http/errors";
import {
  outboundTargetProblem,
  resolvedTargetProblem,
  targetRefusal,
  type TargetProblem,
} from "../http/outbound-target";
import { websiteName } from "../http/origin";
import { isProductHostname, isPublicSuffix } from "../http/own-hosts";
import { Refusal } from "../lib/refusal";
import { mappingLimits, websitesLimitReached } from "../models/limits";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import {
  claimWebsite,
  countOtherEdgeWebsites,
  countPendingWebsites,
  countWebsites,
  customerWebsite,
  listWebsites,
  releaseWebsite,
  toWebsite,
} from "../models/websites";
import { proveWebsite } from "../websites/prove-website";
import { websiteStatus } from "../websites/website-status";

/** Websites per customer, pending claims included: a cap on what one account can make us store and check. */
export const WEBSITES_PER_CUSTOMER = 1_000;
/** Unproven claims per customer at a time: the minute cron's DNS checks are shared between accounts. */
export const PENDING_CLAIMS_PER_CUSTOMER = 20;

const ORIGIN_PROBLEMS: Record<TargetProblem, string> = {
  credentials: "Origin must be a scheme, host and port only, without a path, query or credentials",
  https: "Origin must start with https://",
  "public-host":
    "Origin must be a public hostname such as https://origin.shop.example, not an IP address or a local name",
  ours: "Origin must be the website's own server, not Dynamic Content",
  "private-address":
    "Origin's host name must resolve to public addresses only, not to a private, loopback or reserved one",
  unresolved: "Origin's host name could not be looked up. Please try again in a few minutes.",
};

/** The asset origin is called by visitors' browsers, never by the Worker: its name is not resolved. */
const ASSET_ORIGIN_PROBLEMS: Record<TargetProblem, string> = {
  credentials: "Asset origin must be a scheme, host and port only, without a path, query or credentials",
  https: "Asset origin must start with https://",
  "public-host":
    "Asset origin must be a public hostname such as https://cdn.shop.example, not an IP address or a local name",
  ours: "Asset origin must be a host that serves your website's files, not Dynamic Content",
  "private-address": "Asset origin's host name must resolve to public addresses only",
  unresolved: "Asset origin's host name could not be looked up. Please try again in a few minutes.",
};

const notYours = (hostname: string) => notFound(`${hostname} is not one of your websites`);

/** Refuses the product's own hostnames, and origins the Worker must not call (http/outbound-target.ts). */
async function checkClaim(env: Env, hostname: string, origin: string) {
  if (isProductHostname(env, hostname)) {
    throw badRequest(`${hostname} is Dynamic Content's own hostname and cannot be a customer's website`);
  }
  if (isPublicSuffix(hostname)) {
    throw badRequest(`${hostname} is a public suffix, under which anyone can register a domain: claim your own domain`);
  }
  const target = new URL(origin);
  if (websiteName(target.hostname) === hostname) {
    throw badRequest("Origin must be the server that serves the website, not the website's own hostname");
  }
  const problem = await resolvedTargetProblem(env, target);
  if (problem) throw targetRefusal(problem, ORIGIN_PROBLEMS);
}

/** Refuses an asset origin browsers must not be sent to, or one whose requests would run the Worker again. */
function checkAssetOrigin(env: Env, hostname: string, assetOrigin: string) {
  const target = new URL(assetOrigin);
  if (websiteName(target.hostname) === hostname) {
    throw badRequest(
      "Asset origin must be another host than the website's own, whose requests run through Dynamic Content",
    );
  }
  const problem = outboundTargetProblem(env, target);
  if (problem) throw targetRefusal(problem, ASSET_ORIGIN_PROBLEMS);
}

export const websiteRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", validate("query", plainListQuery), async (c) =>
    pageResponse(c, await listWebsites(c.var.db, c.var.user.id, c.req.valid("query")), c.req.valid("query")),
  )
  .get("/:hostname", validate("param", websiteParam), async (c) => {
    const { hostname } = c.req.valid("param");
    const claim = await customerWebsite(c.var.db, c.var.user.id, hostname);
    if (!claim) throw notYours(hostname);
    return c.json<Website>(toWebsite(claim));
  })
  .get("/:hostname/status", validate("param", websiteParam), async (c) => {
    const { hostname } = c.req.valid("param");
    await throttle(c, "website-status", c.var.user.id);
    const claim = await customerWebsite(c.var.db, c.var.user.id, hostname);
    if (!claim) throw notYours(hostname);
    return c.json<WebsiteStatus>(await websiteStatus(c.env, claim));
  })
  .put("/:hostname", validate("param", websiteParam), validate("json", websiteBody), async (c) => {
    const { hostname } = c.req.valid("param");
    const settings = c.req.valid("json");
    await checkClaim(c.env, hostname, settings.origin);
    if (settings.assetOrigin) checkAssetOrigin(c.env, hostname, settings.assetOrigin);
    const db = c.var.db;
    const user = c.var.user;
    // Another account's claim, pending or active, does not stand in the way: whoever proves the hostname holds it.
    const existing = await customerWebsite(db, user.id, hostname);
    if (!existing && (await countWebsites(db, user.id)) >= WEBSITES_PER_CUSTOMER) {
      throw badRequest(`An account can have at most ${formatNumber(WEBSITES_PER_CUSTOMER)} websites`);
    }
    if (!existing && (await countPendingWebsites(db, user.id)) >= PENDING_CLAIMS_PER_CUSTOMER) {
      throw badRequest(
        `An account can have at most ${PENDING_CLAIMS_PER_CUSTOMER} unproven websites at a time: prove or remove one first`,
      );
    }
    if (settings.mode === "edge" && existing?.mode !== "edge") {
      const { websitesLimit } = await mappingLimits(db, user);
      if (websitesLimit !== null && (await countOtherEdgeWebsites(db, user.id, hostname)) >= websitesLimit) {
        throw new Refusal(403, websitesLimitReached(websitesLimit, hostname));
      }
    }
    const { website, created } = await claimWebsite(db, user.id, hostname, settings);
    // A proven website's new origin or mode is served at once; a pending claim serves nothing yet.
    if (website.status === "active") reportDelivery(c, await syncEdgeHost(c.env, user.id, hostname));
    return c.json<Website>(toWebsite(website), created ? 201 : 200);
  })
  .post("/:hostname/verify", validate("param", websiteParam), async (c) => {
    const { hostname } = c.req.valid("param");
    await throttle(c, "website-check", c.var.user.id);
    const claim = await customerWebsite(c.var.db, c.var.user.id, hostname);
    if (!claim) throw notYours(hostname);
    const proof = await proveWebsite(c.env, claim);
    if (proof.outcome === "taken") throw conflict(`${hostname} was proven by another account at the same moment`);
    if (proof.outcome === "active") reportDelivery(c, proof.delivered);
    return c.json<Website>(toWebsite(proof.website));
  })
  .delete("/:hostname", validate("param", websiteParam), async (c) => {
    const { hostname } = c.req.valid("param");
    const released = await releaseWebsite(c.var.db, c.var.user.id, hostname);
    if (!released) throw notYours(hostname);
    if (released.status === "active") reportDelivery(c, await syncEdgeHost(c.env, c.var.user.id, hostname));
    return c.json<MessageResponse>({ message: `${hostname} was released` });
  });
