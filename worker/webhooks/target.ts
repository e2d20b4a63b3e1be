/**
 * @module Where a webhook may point (docs/webhooks.md, "Limits"). In production: https to a public host name, never an
 * IP address, localhost or a name that only resolves inside a network, so that a customer cannot make the Worker
 * call what is not theirs on the Internet. In development (`ENVIRONMENT=development`) http and loopback addresses
 * are allowed too, as for websites' origins (docs/decisions.md), so that local receivers and the end-to-end tests work.
 * Checked when a webhook is registered and again before every attempt.
 */
import { isDevelopment, type Env } from "../env";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/;
const IP_ADDRESS = /^(\d+\.\d+\.\d+\.\d+|\[.*\])$/;
/** Names that resolve only inside a network, or to the machine itself. */
const PRIVATE_NAME =
  /(^|\.)(localhost|local|internal|intranet|lan|home|corp|private|home\.arpa|in-addr\.arpa|ip6\.arpa)$/;

export const WEBHOOK_HTTPS_ONLY = "Webhook URL must start with https://";
export const WEBHOOK_PUBLIC_HOST =
  "Webhook URL must name a public host such as https://hooks.example.com, not an IP address or a local name";
export const WEBHOOK_NO_CREDENTIALS = "Webhook URL must not contain a user name or password";
export const WEBHOOK_NOT_OURS = "Webhook URL must not point at Dynamic Content itself";

/** Why `url` (already an http(s) URL of at most 2,048 characters) cannot be a webhook here, or null. */
export function webhookUrlProblem(env: Env, url: string, ownHosts: readonly string[] = []): string | null {
  const target = new URL(url);
  const host = target.hostname.toLowerCase();
  if (target.username || target.password) return WEBHOOK_NO_CREDENTIALS;
  if (isDevelopment(env) && LOOPBACK.test(host)) return null;
  if (target.protocol !== "https:" && !isDevelopment(env)) return WEBHOOK_HTTPS_ONLY;
  if (IP_ADDRESS.test(host) || !host.includes(".") || PRIVATE_NAME.test(host.replace(/\.$/, ""))) {
    return WEBHOOK_PUBLIC_HOST;
  }
  if (ownHosts.includes(host)) return WEBHOOK_NOT_OURS;
  return null;
}

/** The product's own host names: a webhook there would only call our API without a key. */
export function ownHosts(env: Env, requestUrl?: string): string[] {
  const hosts = [env.PUBLIC_ORIGIN, env.DELIVERY_ORIGIN, requestUrl]
    .filter((origin): origin is string => !!origin && URL.canParse(origin))
    .map((origin) => new URL(origin).hostname.toLowerCase());
  return [...new Set(hosts)];
}
