/**
 * @module The proof that a customer controls a hostname: a DNS TXT record at `_dynamic-content.<hostname>` holding
 * their claim's token, read over DNS-over-HTTPS in the JSON form (`application/dns-json`, as Cloudflare's and
 * Google's resolvers answer it) from DNS_RESOLVER_URL. Only whoever runs the hostname's DNS can put it there.
 */
import { z } from "zod";
import type { Env } from "../env";
import { verificationName } from "../models/websites";

export const DEFAULT_DNS_RESOLVER_URL = "https://cloudflare-dns.com/dns-query";
const CHECK_TIMEOUT_MS = 5_000;
const TXT = 16;
const NXDOMAIN = 3;

/** What a DoH resolver answers, as far as a TXT lookup needs it. */
const dohAnswer = z.object({
  Status: z.number(),
  Answer: z.array(z.object({ type: z.number(), data: z.string() })).optional(),
});

/** `unavailable`: the resolver did not answer, so the check says nothing about the record. */
export type ProofCheck = { proven: true } | { proven: false; problem: string; unavailable?: true };

/**
 * A TXT record's text as the JSON form writes it: one or more quoted strings (`"part one" "part two"`, a record
 * longer than 255 bytes is split), joined; unquoted data as it is.
 */
export function txtText(data: string): string {
  const parts = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, "$1"));
  return parts.length > 0 ? parts.join("") : data.trim();
}

const UNAVAILABLE = "The DNS check could not be completed. Please try again in a few minutes.";

/** Whether the hostname's TXT record holds `token`; when not, what the customer should know. */
export async function checkDnsProof(
  env: Pick<Env, "DNS_RESOLVER_URL">,
  hostname: string,
  token: string,
): Promise<ProofCheck> {
  const name = verificationName(hostname);
  const url = new URL(env.DNS_RESOLVER_URL?.trim() || DEFAULT_DNS_RESOLVER_URL);
  url.searchParams.set("name", name);
  url.searchParams.set("type", "TXT");
  let answer: z.infer<typeof dohAnswer>;
  try {
    const res = await fetch(url, {
      headers: { Accept: "application/dns-json" },
      redirect: "manual",
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    answer = dohAnswer.parse(await res.json());
  } catch (err) {
    console.error(`DNS check of ${name} failed`, err);
    return { proven: false, problem: UNAVAILABLE, unavailable: true };
  }
  if (answer.Status !== 0 && answer.Status !== NXDOMAIN)
    return { proven: false, problem: UNAVAILABLE, unavailable: true };
  const texts = (answer.Answer ?? []).filter((record) => record.type === TXT).map((record) => txtText(record.data));
  if (texts.includes(token)) return { proven: true };
  return {
    proven: false,
    problem:
      texts.length === 0
        ? `No TXT record found at ${name} yet. DNS changes can take a few minutes to appear.`
        : `The TXT record at ${name} does not hold this claim's value.`,
  };
}
