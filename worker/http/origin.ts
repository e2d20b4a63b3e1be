/**
 * @module The product's own origins, from configuration only: PUBLIC_ORIGIN (the dashboard, the API, and the base
 * of every link the product hands out: mails, the OpenAPI `servers`) and DELIVERY_ORIGIN (the cookieless host
 * customers' pages load the snippet and their content from; default PUBLIC_ORIGIN). A request's `Host` never
 * builds a link: a customer who owns a hostname that reaches the Worker would otherwise receive other people's
 * links (docs/decisions.md, "The product's own hosts"). Without a valid PUBLIC_ORIGIN the routes that need it
 * answer 503, as for a missing APP_SECRET (http/host-gate.ts).
 */
import type { Context } from "hono";
import { isDevelopment, type AppEnv, type Env } from "../env";
import { ApiError } from "./errors";
import { NOT_CONFIGURED_MESSAGE } from "./not-configured";

export interface ProductOrigins {
  /** PUBLIC_ORIGIN as scheme, host and port, without a trailing slash. */
  public: string;
  /** DELIVERY_ORIGIN, or PUBLIC_ORIGIN when it is not set. */
  delivery: string;
}

/** A hostname as every comparison sees it: lowercase, without the trailing dot of a fully qualified name. */
export const canonicalHostname = (hostname: string) => hostname.toLowerCase().replace(/\.+$/, "");

/** The website a hostname belongs to, as websites are named (no leading `www.`s, no trailing dot). */
export const websiteName = (hostname: string) => canonicalHostname(hostname).replace(/^(www\.)+/, "");

/** `hostname[:port]` of a URL, canonical, the port only where it is not the scheme's default. */
export function canonicalHost(url: URL): string {
  const hostname = canonicalHostname(url.hostname);
  return url.port ? `${hostname}:${url.port}` : hostname;
}

type Parsed = { origin: string } | { problem: string };

/** An origin setting as scheme, host and port, or what is wrong with it. */
function parseOrigin(name: string, value: string, env: Pick<Env, "ENVIRONMENT">): Parsed {
  if (!URL.canParse(value.trim())) return { problem: `${name} is not a URL` };
  const url = new URL(value.trim());
  const allowed = isDevelopment(env) ? ["http:", "https:"] : ["https:"];
  if (!allowed.includes(url.protocol)) return { problem: `${name} must start with ${allowed.join(" or ")}//` };
  if (url.username || url.password || url.search || url.hash || url.pathname.replace(/\/+$/, "") !== "") {
    return { problem: `${name} must be a scheme, host and port only` };
  }
  return { origin: `${url.protocol}//${canonicalHost(url)}` };
}

type Configured = { origins: ProductOrigins; problem?: undefined } | { origins?: undefined; problem: string };

/** The configured origins, or what is wrong with the settings (for the log). */
export function productOrigins(env: Pick<Env, "PUBLIC_ORIGIN" | "DELIVERY_ORIGIN" | "ENVIRONMENT">): Configured {
  if (!env.PUBLIC_ORIGIN?.trim()) return { problem: "PUBLIC_ORIGIN is not set" };
  const publicOrigin = parseOrigin("PUBLIC_ORIGIN", env.PUBLIC_ORIGIN, env);
  if ("problem" in publicOrigin) return publicOrigin;
  if (!env.DELIVERY_ORIGIN?.trim()) return { origins: { public: publicOrigin.origin, delivery: publicOrigin.origin } };
  const delivery = parseOrigin("DELIVERY_ORIGIN", env.DELIVERY_ORIGIN, env);
  if ("problem" in delivery) return delivery;
  return { origins: { public: publicOrigin.origin, delivery: delivery.origin } };
}

function configured(env: Env): ProductOrigins {
  const { origins } = productOrigins(env);
  // The host gate answers 503 before any route runs without valid origins; this guards direct callers.
  if (!origins) throw new ApiError(503, NOT_CONFIGURED_MESSAGE);
  return origins;
}

/** Where links lead: the dashboard's and the API's origin (PUBLIC_ORIGIN). */
export const publicOrigin = (c: Context<AppEnv>): string => configured(c.env).public;

/** Where snippets load `snippet.js` from, and so where the content requests of customers' pages go. */
export const deliveryOrigin = (c: Context<AppEnv>): string => configured(c.env).delivery;

/** The delivery host (`host[:port]`) when DELIVERY_ORIGIN names one of its own; null when delivery shares PUBLIC_ORIGIN. */
export function separateDeliveryHost(env: Env): string | null {
  const { origins } = productOrigins(env);
  if (!origins || origins.delivery === origins.public) return null;
  return new URL(origins.delivery).host;
}

/**
 * Where "Pick on page" frames a customer's page (docs/placement.md): DELIVERY_ORIGIN when it is a host of its own; in
 * development on localhost or 127.0.0.1, the other of the two at the same port (a different origin); else null.
 */
export function pickFrameOrigin(env: Env): string | null {
  const { origins } = productOrigins(env);
  if (!origins) return null;
  if (origins.delivery !== origins.public) return origins.delivery;
  const url = new URL(origins.public);
  if (!isDevelopment(env) || !["localhost", "127.0.0.1"].includes(url.hostname)) return null;
  url.hostname = url.hostname === "localhost" ? "127.0.0.1" : "localhost";
  return url.origin;
}
