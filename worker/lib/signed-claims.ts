/**
 * @module Short-lived signed tokens: claims as base64url JSON, a `.`, and their HMAC-SHA256 under a key the caller
 * derives from APP_SECRET; `e` is when the token expires (unix seconds). Preview links (delivery/preview.ts) and
 * pick-on-page frames (websites/pick-frame.ts) use them.
 */
import { fromBase64Url, hmacSha256Hex, sameInConstantTime, toBase64Url } from "./crypto";

const encoder = new TextEncoder();

export async function signClaims<T extends { e: number }>(key: string, claims: T): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify(claims)));
  return `${payload}.${await hmacSha256Hex(key, payload)}`;
}

/** The token's claims when its signature verifies under `key` and it has not expired; else null. */
export async function readSignedClaims<T extends { e: number }>(
  key: string,
  token: string,
  now: Date,
): Promise<T | null> {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  if (!sameInConstantTime(signature, await hmacSha256Hex(key, payload))) return null;
  try {
    const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(payload))) as T;
    return typeof claims.e === "number" && claims.e * 1000 > now.getTime() ? claims : null;
  } catch {
    return null;
  }
}
