/**
 * Every Worker test's DNS resolver: a lookup at DNS_RESOLVER_URL (`https://dns.test`, which does not exist) that no
 * test's own stand-in answers (test/websites.ts `standInDns`) finds nothing (NXDOMAIN), never the network. A test's
 * `vi.spyOn(globalThis, "fetch")` sits on top of this, and `vi.restoreAllMocks()` comes back to it.
 */
import { env } from "cloudflare:workers";

const resolver = new URL(env.DNS_RESOLVER_URL!);
const networkFetch = globalThis.fetch;

globalThis.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.origin + url.pathname !== resolver.origin + resolver.pathname) return networkFetch(input, init);
  return Response.json({ Status: 3 }, { headers: { "Content-Type": "application/dns-json" } });
};
