/** @module Admin passwords: PBKDF2-SHA256 through WebCrypto with a random salt, `pbkdf2$iterations$salt$hash`. */
import { fromBase64Url, toBase64Url } from "../lib/crypto";

// Workers cap PBKDF2 at 100,000 iterations.
const ITERATIONS = 100_000;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, ITERATIONS);
  return `pbkdf2$${ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== "pbkdf2" || !iterations || !salt || !hash) return false;
  const actual = await derive(password, fromBase64Url(salt), Number(iterations));
  const expected = fromBase64Url(hash);
  if (actual.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= actual[i]! ^ expected[i]!;
  return diff === 0;
}

/**
 * A well-formed hash that no password matches: checked when the address has no admin account, so that a sign-in
 * takes the same PBKDF2 run (and time) whether or not the account exists.
 */
export const DECOY_PASSWORD_HASH = `pbkdf2$${ITERATIONS}$${"A".repeat(22)}$${"A".repeat(43)}`;
