/**
 * @module The proof that a customer controls a hostname: a DNS TXT record at `_dynamic-content.<hostname>` holding
 * their claim's token, read over DNS-over-HTTPS (http/doh.ts) from DNS_RESOLVER_URL. Only whoever runs the
 * hostname's DNS can put it there.
 */
import type { Env } from "../env";
import { dnsRecords } from "../http/doh";
import { verificationName } from "../models/websites";

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
  let texts: string[];
  try {
    texts = (await dnsRecords(env, name, "TXT")).map(txtText);
  } catch (err) {
    console.error(`DNS check of ${name} failed`, err);
    return { proven: false, problem: UNAVAILABLE, unavailable: true };
  }
  if (texts.includes(token)) return { proven: true };
  return {
    proven: false,
    problem:
      texts.length === 0
        ? `No TXT record found at ${name} yet. DNS changes can take a few minutes to appear.`
        : `The TXT record at ${name} does not hold this claim's value.`,
  };
}
