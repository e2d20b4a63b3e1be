/**
 * @module An edge website's way to going live, in three steps the dashboard shows with a next step each: DNS (the
 * hostname's addresses include the product's own), ownership (the claim's TXT proof, as the last check found it)
 * and the certificate (Cloudflare for SaaS's `ssl.status` where configured). Read on request (GET
 * /api/websites/{hostname}/status): at most four DNS-over-HTTPS lookups and one Cloudflare call, never on a page
 * view.
 */
import type { WebsiteStatus, WebsiteStepState } from "#contract/responses";
import type { Website } from "../db/schema";
import type { Env } from "../env";
import { dnsRecords } from "../http/doh";
import { toWebsite } from "../models/websites";
import { customHostnameSslStatus, customHostnamesConfigured } from "./custom-hostnames";
import ipaddr from "ipaddr.js";

/** A name's A and AAAA addresses; an IP literal (a URL's `[::1]` unbracketed) is its own. */
async function addressesOf(env: Env, hostname: string): Promise<string[]> {
  const literal = hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(literal)) return [literal];
  const [v4, v6] = await Promise.all([dnsRecords(env, hostname, "A"), dnsRecords(env, hostname, "AAAA")]);
  return [...v4, ...v6];
}

/** Whether the hostname resolves to one of the addresses PUBLIC_ORIGIN's host resolves to (where edge traffic goes). */
async function dnsStep(env: Env, hostname: string): Promise<NonNullable<WebsiteStatus["dns"]>> {
  try {
    const ours = new URL(env.PUBLIC_ORIGIN!.trim()).hostname;
    const [theirs, product] = await Promise.all([addressesOf(env, hostname), addressesOf(env, ours)]);
    const pointsAtUs = theirs.some((address) => product.includes(address));
    return { state: pointsAtUs ? "done" : "waiting", addresses: theirs };
  } catch (err) {
    console.error(`Resolving ${hostname} for its status failed`, err);
    return { state: "unknown", addresses: [] };
  }
}

/** Cloudflare's certificate states that end without a certificate; every other but `active` is on its way. */
const FAILED_SSL = /(timed_out|expired|deleted|inactive|deactivating)$/;

async function certificateStep(env: Env, claim: Website): Promise<NonNullable<WebsiteStatus["certificate"]>> {
  if (!customHostnamesConfigured(env)) return { state: "managed", sslStatus: null };
  // Registered with Cloudflare once proven (custom-hostnames.ts); the first id is the hostname's own, not `www.`'s.
  const id = claim.status === "active" ? claim.customHostnameIds?.[0] : undefined;
  if (!id) return { state: "waiting", sslStatus: null };
  const sslStatus = await customHostnameSslStatus(env, id);
  const state: WebsiteStepState =
    sslStatus === null
      ? "unknown"
      : sslStatus === "active"
        ? "done"
        : FAILED_SSL.test(sslStatus)
          ? "failed"
          : "waiting";
  return { state, sslStatus };
}

export async function websiteStatus(env: Env, claim: Website): Promise<WebsiteStatus> {
  const website = toWebsite(claim);
  const ownership: WebsiteStatus["ownership"] = {
    state: claim.status === "pending" ? "waiting" : claim.checkProblem ? "failed" : "done",
    record: website.verification,
    problem: claim.checkProblem,
  };
  if (claim.mode !== "edge") {
    return { hostname: claim.hostname, ready: ownership.state === "done", dns: null, ownership, certificate: null };
  }
  const [dns, certificate] = await Promise.all([dnsStep(env, claim.hostname), certificateStep(env, claim)]);
  const ready = ownership.state === "done" && dns.state === "done" && ["done", "managed"].includes(certificate.state);
  return { hostname: claim.hostname, ready, dns, ownership, certificate };
}
