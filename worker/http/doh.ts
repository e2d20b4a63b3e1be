/**
 * @module DNS over HTTPS in the JSON form (`application/dns-json`, as Cloudflare's and Google's resolvers answer it)
 * from DNS_RESOLVER_URL: the one way the Worker asks DNS, for a website's proof (TXT, websites/dns-proof.ts) and for
 * the addresses of a customer's outbound target (A and AAAA, http/outbound-target.ts).
 */
import { z } from "zod";
import type { Env } from "../env";

export const DEFAULT_DNS_RESOLVER_URL = "https://cloudflare-dns.com/dns-query";
const LOOKUP_TIMEOUT_MS = 5_000;
const RECORD_TYPES = { A: 1, TXT: 16, AAAA: 28 } as const;
export type RecordType = keyof typeof RECORD_TYPES;
const NO_ERROR = 0;
const NXDOMAIN = 3;

/** What a DoH resolver answers, as far as a lookup needs it. */
const dohAnswer = z.object({
  Status: z.number(),
  Answer: z.array(z.object({ type: z.number(), data: z.string() })).optional(),
});

/**
 * The data of the `type` records at `name` (a CNAME chain's own records left out): none when the name or its
 * records do not exist. Throws when the resolver cannot be reached or does not answer the question.
 */
export async function dnsRecords(
  env: Pick<Env, "DNS_RESOLVER_URL">,
  name: string,
  type: RecordType,
): Promise<string[]> {
  const url = new URL(env.DNS_RESOLVER_URL?.trim() || DEFAULT_DNS_RESOLVER_URL);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  const res = await fetch(url, {
    headers: { Accept: "application/dns-json" },
    redirect: "manual",
    signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`The DNS resolver answered HTTP ${res.status} for ${type} ${name}`);
  const answer = dohAnswer.parse(await res.json());
  if (answer.Status !== NO_ERROR && answer.Status !== NXDOMAIN) {
    throw new Error(`The DNS resolver answered status ${answer.Status} for ${type} ${name}`);
  }
  return (answer.Answer ?? []).filter((record) => record.type === RECORD_TYPES[type]).map((record) => record.data);
}
