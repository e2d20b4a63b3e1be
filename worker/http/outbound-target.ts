/**
 * @module Where the Worker may send a customer's requests (a website's origin, a webhook): in production https to
 * a public host name, never an IP address, localhost, a name that resolves only inside a network, or one of the
 * product's own hosts, so that a customer cannot make the Worker call what is not theirs. In development
 * (`ENVIRONMENT=development`) http and loopback addresses are allowed too, so that local servers and the
 * end-to-end tests work, though never the product itself.
 *
 * A name alone proves nothing (`127.0.0.1.nip.io`, P-11): `resolvedTargetProblem` also asks DNS (http/doh.ts, A and
 * AAAA) and refuses a name when any of its addresses is not public unicast (private, loopback, link-local, carrier
 * NAT, reserved, multicast, IPv4 inside IPv6; loopback allowed in development). Checked when the target is saved and
 * again before each call; what a name resolves to is kept per isolate for RESOLUTION_TTL_MS, so that the edge proxy
 * pays two DoH subrequests per origin a minute, not per page view.
 */
import ipaddr from "ipaddr.js";
import { isDevelopment, type Env } from "../env";
import { dnsRecords } from "./doh";
import { ApiError } from "./errors";
import { canonicalHostname, productOrigins } from "./origin";
import { isIpAddress, isLoopback, isOwnRequestHost, isProductHostname } from "./own-hosts";

/** Names that resolve only inside a network, or to the machine itself. */
const PRIVATE_NAME =
  /(^|\.)(localhost|local|internal|intranet|lan|home|corp|private|svc|cluster\.local|home\.arpa|in-addr\.arpa|ip6\.arpa)$/;

/**
 * `private-address`: the name resolves to an address that is not public; `unresolved`: the resolver could not say
 * (in production the call waits for a later try; in development it goes ahead, as loopback may anyway).
 */
export type TargetProblem = "credentials" | "https" | "public-host" | "ours" | "private-address" | "unresolved";

/** Why the Worker must not send requests to `url` (an http(s) URL), by the URL alone; or null. */
export function outboundTargetProblem(env: Env, url: URL): TargetProblem | null {
  const hostname = canonicalHostname(url.hostname);
  if (url.username || url.password) return "credentials";
  if (isDevelopment(env) && isLoopback(hostname)) {
    const { origins } = productOrigins(env);
    return origins && isOwnRequestHost(env, origins, url) ? "ours" : null;
  }
  if (url.protocol !== "https:" && !isDevelopment(env)) return "https";
  if (isIpAddress(hostname) || !hostname.includes(".") || PRIVATE_NAME.test(hostname)) return "public-host";
  if (isProductHostname(env, hostname)) return "ours";
  return null;
}

/** Why the Worker must not send requests to `url`: the URL's own problem, or what its host name resolves to. */
export async function resolvedTargetProblem(env: Env, url: URL): Promise<TargetProblem | null> {
  const problem = outboundTargetProblem(env, url);
  if (problem) return problem;
  const hostname = canonicalHostname(url.hostname);
  // A loopback name allowed in development (localhost, 127.x) has nothing to ask DNS.
  if (isDevelopment(env) && isLoopback(hostname)) return null;
  return resolvedAddressProblem(env, hostname);
}

/** The answer to saving a target with `problem`: 400 with its message, or 503 when DNS could not be asked. */
export function targetRefusal(problem: TargetProblem, messages: Record<TargetProblem, string>): ApiError {
  return new ApiError(problem === "unresolved" ? 503 : 400, messages[problem]);
}

/** Whether `address` (as DNS answers it) is one the Worker may call: public unicast, or loopback in development. */
export function isPublicAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  return range === "unicast" || (allowLoopback && range === "loopback");
}

/** How long what a name resolves to is kept: DNS answers of origins rarely change faster, and the proxy stays cheap. */
export const RESOLUTION_TTL_MS = 60_000;
/** Names kept at once per isolate: the oldest goes first. */
const RESOLUTIONS_KEPT = 5_000;

/**
 * Outcomes, not promises: a promise made in one request must not be awaited by another (workerd). A resolver that
 * failed is not kept, so that the next call asks again.
 */
const resolutions = new Map<string, { until: number; problem: TargetProblem | null }>();

/** For tests that change what a name resolves to between calls. */
export function forgetResolutions(): void {
  resolutions.clear();
}

async function resolvedAddressProblem(env: Env, hostname: string): Promise<TargetProblem | null> {
  const development = isDevelopment(env);
  const key = `${development ? "dev" : "prod"}:${env.DNS_RESOLVER_URL ?? ""}:${hostname}`;
  const kept = resolutions.get(key);
  if (kept && kept.until > Date.now()) return kept.problem;
  const problem = await lookUp(env, hostname, development);
  resolutions.delete(key);
  if (problem === "unresolved") return problem;
  if (resolutions.size >= RESOLUTIONS_KEPT) resolutions.delete(resolutions.keys().next().value!);
  resolutions.set(key, { until: Date.now() + RESOLUTION_TTL_MS, problem });
  return problem;
}

async function lookUp(env: Env, hostname: string, development: boolean): Promise<TargetProblem | null> {
  let addresses: string[];
  try {
    const [v4, v6] = await Promise.all([dnsRecords(env, hostname, "A"), dnsRecords(env, hostname, "AAAA")]);
    addresses = [...v4, ...v6];
  } catch (err) {
    console.error(`Resolving ${hostname} failed`, err);
    return development ? null : "unresolved";
  }
  // A name without addresses cannot be called at all: nothing to refuse (it is checked again before each call).
  return addresses.every((address) => isPublicAddress(address, development)) ? null : "private-address";
}
