/**
 * @module The signature of a webhook event (docs/webhooks.md): `X-DC-Signature: t=<unix seconds>,v1=<hex>`, where the
 * hex is HMAC-SHA256 of `<t>.<body>` under the webhook's secret, as Stripe signs. The timestamp is signed with the
 * body, so a receiver that refuses old timestamps cannot be replayed an old event.
 */
import { hmacSha256Hex, sameInConstantTime } from "../lib/crypto";

export const SIGNATURE_HEADER = "X-DC-Signature";

/** The header's value for `body` sent at `now`. */
export async function signatureHeader(secret: string, body: string, now: Date): Promise<string> {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${await hmacSha256Hex(secret, `${t}.${body}`)}`;
}

/**
 * What a receiver does: true when `header` signs `body` under `secret` and its timestamp is within
 * `toleranceSeconds` of `now`. Compares in constant time.
 */
export async function verifySignature(
  secret: string,
  header: string,
  body: string,
  now: Date,
  toleranceSeconds = 300,
): Promise<boolean> {
  const parts = new Map(
    header.split(",").map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get("t"));
  const given = parts.get("v1") ?? "";
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  return sameInConstantTime(given, await hmacSha256Hex(secret, `${t}.${body}`));
}
