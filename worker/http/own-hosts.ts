/**
 * @module Which hosts are the product's: the hosts a request may reach the dashboard, the API and delivery on, and
 * the hostnames no customer may ever claim as a website, point an origin or a webhook at.
 */
import { getDomain } from "tldts";
import { isDevelopment, type Env } from "../env";
import { canonicalHost, canonicalHostname, productOrigins, type ProductOrigins } from "./origin";

const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** An IP address (v4, or v6 in brackets as URLs write it), which names a machine rather than a website. */
export const isIpAddress = (hostname: string) =>
  IPV4.test(hostname) || hostname.includes(":") || hostname.startsWith("[");

export const isLoopback = (hostname: string) => LOOPBACK.test(hostname);

const portOf = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80");

/**
 * Whether a request for `url` is for the product itself: PUBLIC_ORIGIN's or DELIVERY_ORIGIN's host; in development
 * also the other loopback names at PUBLIC_ORIGIN's port (`npm start` answers on 127.0.0.1 and localhost alike).
 */
export function isOwnRequestHost(env: Env, origins: ProductOrigins, url: URL): boolean {
  const host = canonicalHost(url);
  const publicUrl = new URL(origins.public);
  if (host === publicUrl.host || host === new URL(origins.delivery).host) return true;
  return (
    isDevelopment(env) &&
    isLoopback(canonicalHostname(url.hostname)) &&
    isLoopback(publicUrl.hostname) &&
    portOf(url) === portOf(publicUrl)
  );
}

/** The registrable domain of a hostname (`app.dynamic-content.example` → `dynamic-content.example`), or null. */
const registrableDomain = (hostname: string) =>
  isIpAddress(hostname) ? null : getDomain(hostname, { allowPrivateDomains: true });

/**
 * Whether a hostname is itself a public suffix (`co.uk`, `github.io`, `appspot.com`: the Public Suffix List's
 * ICANN and private sections), under which anyone registers domains, so that no one account may claim it.
 */
export const isPublicSuffix = (hostname: string) => !isIpAddress(hostname) && registrableDomain(hostname) === null;

/**
 * Whether a hostname is the product's own or nobody's: an IP address, localhost, a name without a dot,
 * Cloudflare's `workers.dev`, or any host under the registrable domain of PUBLIC_ORIGIN or DELIVERY_ORIGIN
 * (the dashboard's `www` twin, the Cloudflare for SaaS fallback origin, a marketing site on the same zone).
 */
export function isProductHostname(env: Env, hostname: string): boolean {
  const name = canonicalHostname(hostname);
  if (isIpAddress(name) || !name.includes(".") || name === "localhost" || name.endsWith(".localhost")) return true;
  if (name === "workers.dev" || name.endsWith(".workers.dev")) return true;
  const { origins } = productOrigins(env);
  if (!origins) return false;
  return [origins.public, origins.delivery].some((origin) => {
    const own = new URL(origin).hostname;
    const domain = registrableDomain(own) ?? own;
    return name === own || name === domain || name.endsWith(`.${domain}`);
  });
}
