/**
 * @module Websites in the Worker tests: a DNS-over-HTTPS resolver (JSON form, as Cloudflare's answers) where every
 * outbound `fetch` to DNS_RESOLVER_URL is answered from `records` (name → TXT texts) or `addresses` (name → A and
 * AAAA addresses; a name without is NXDOMAIN) and every other goes out as usual (for a test's `beforeEach`; `vi.restoreAllMocks()` undoes it); claiming and proving a website through the
 * API; and an edge website made active directly, for tests of what is served rather than how it is proven.
 */
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import type { Website } from "#contract/responses";
import type { WebsiteSettings } from "#contract/schemas";
import { syncEdgeHost } from "../delivery/sync";
import type { Env } from "../env";
import { forgetResolutions } from "../http/outbound-target";
import { activateWebsite, claimWebsite } from "../models/websites";
import { call, db, testEnv } from "./helpers";

export interface DnsStandIn {
  /** TXT texts per DNS name. */
  records: Map<string, string[]>;
  /** IPv4 and IPv6 addresses per DNS name (an outbound target's). */
  addresses: Map<string, string[]>;
  /** Names asked for TXT, in order. */
  asked: string[];
  /** Names asked for A or AAAA, in order. */
  resolved: string[];
  /** True: the resolver answers 503. */
  down: boolean;
}

/** Another outside service the test stands in for: its answer to a request, or undefined to let it go out. */
export type OtherService = (request: Request) => Response | undefined | Promise<Response | undefined>;

export function standInDns(other?: OtherService): DnsStandIn {
  const dns: DnsStandIn = { records: new Map(), addresses: new Map(), asked: [], resolved: [], down: false };
  // What earlier tests' names resolved to is not this test's.
  forgetResolutions();
  const resolver = new URL(env.DNS_RESOLVER_URL!);
  // Another stand-in already spying on fetch (an origin, webhook receivers) keeps answering what it answers: a second
  // spyOn would replace its implementation and call itself.
  const current = globalThis.fetch;
  const realFetch: typeof fetch = (vi.isMockFunction(current) && current.getMockImplementation()) || current;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin + url.pathname !== resolver.origin + resolver.pathname) {
      return (await other?.(new Request(input, init))) ?? realFetch(input, init);
    }
    const name = url.searchParams.get("name")!;
    const type = url.searchParams.get("type");
    if (type === "A" || type === "AAAA") {
      dns.resolved.push(name);
      if (dns.down) return new Response("unavailable", { status: 503 });
      const found = (dns.addresses.get(name) ?? []).filter((a) => a.includes(":") === (type === "AAAA"));
      const code = type === "A" ? 1 : 28;
      return Response.json(
        {
          Status: dns.addresses.has(name) ? 0 : 3,
          Answer: found.map((data) => ({ name, type: code, TTL: 60, data })),
        },
        { headers: { "Content-Type": "application/dns-json" } },
      );
    }
    dns.asked.push(name);
    if (dns.down) return new Response("unavailable", { status: 503 });
    const texts = dns.records.get(name) ?? [];
    const body = {
      Status: texts.length > 0 ? 0 : 3,
      Question: [{ name, type: 16 }],
      ...(texts.length > 0
        ? { Answer: texts.map((t) => ({ name, type: 16, TTL: 300, data: JSON.stringify(t) })) }
        : {}),
    };
    return Response.json(body, { headers: { "Content-Type": "application/dns-json" } });
  });
  return dns;
}

/** Claims `hostname` for the customer, publishes its TXT record and proves it: an active website. */
export async function proveWebsite(
  dns: DnsStandIn,
  apiKey: string,
  hostname: string,
  settings: { origin: string; mode: "snippet" | "edge" },
  e: Env = testEnv(),
): Promise<Website> {
  const claimed = await call(`/api/websites/${hostname}`, { method: "PUT", apiKey, json: settings }, e);
  if (claimed.status !== 201 && claimed.status !== 200)
    throw new Error(`PUT: ${claimed.status} ${await claimed.text()}`);
  const claim = (await claimed.json()) as Website;
  dns.records.set(claim.verification.name, [claim.verification.value]);
  const proven = await call(`/api/websites/${hostname}/verify`, { method: "POST", apiKey }, e);
  const website = (await proven.json()) as Website;
  if (website.status !== "active") throw new Error(`verify: ${proven.status} ${JSON.stringify(website)}`);
  return website;
}

/** The customer's proven website at `hostname`, its delivery entries written: what a DNS proof leaves behind. */
export async function provenWebsite(userId: string, hostname: string, settings: WebsiteSettings): Promise<void> {
  await claimWebsite(db(), userId, hostname, settings);
  if (!(await activateWebsite(db(), userId, hostname))) throw new Error(`${hostname} could not be made active`);
  if (!(await syncEdgeHost(env, userId, hostname))) throw new Error(`${hostname}'s delivery entries were not written`);
}
