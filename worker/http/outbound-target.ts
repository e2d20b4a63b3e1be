/**
 * @module Where the Worker may send a customer's requests (a website's origin, a webhook): in production https to
 * a public host name, never an IP address, localhost, a name that resolves only inside a network, or one of the
 * product's own hosts, so that a customer cannot make the Worker call what is not theirs. In development
 * (`ENVIRONMENT=development`) http and loopback addresses are allowed too, so that local servers and the
 * end-to-end tests work, though never the product itself.
 */
import { isDevelopment, type Env } from "../env";
import { canonicalHostname, productOrigins } from "./origin";
import { isIpAddress, isLoopback, isOwnRequestHost, isProductHostname } from "./own-hosts";

/** Names that resolve only inside a network, or to the machine itself. */
const PRIVATE_NAME =
  /(^|\.)(localhost|local|internal|intranet|lan|home|corp|private|home\.arpa|in-addr\.arpa|ip6\.arpa)$/;

export type TargetProblem = "credentials" | "https" | "public-host" | "ours";

/** Why the Worker must not send requests to `url` (an http(s) URL), or null. */
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
