/**
 * @module Small WebCrypto helpers: random tokens, hashes, HMAC signatures, and AES-GCM for secrets that must be shown again
 * (API keys, the SMTP password). The AES key is derived from APP_SECRET; after a rotation, secrets sealed
 * under APP_SECRET_PREVIOUS still open (`openSecret`), and their readers seal them again under the new one.
 */
const encoder = new TextEncoder();

export function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

export function randomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Base64Url(value: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value))));
}

/** HMAC-SHA256 of `message` under `secret`, as hex. */
export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether two texts (signatures) are equal, in a time that does not depend on where they differ. */
export function sameInConstantTime(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return difference === 0;
}

const aesKeys = new Map<string, Promise<CryptoKey>>();

function aesKey(secret: string): Promise<CryptoKey> {
  let key = aesKeys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", encoder.encode(`dynamic-content:aes:${secret}`))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    aesKeys.set(secret, key);
  }
  return key;
}

/** The secrets that seal stored secrets: the current one, and the one before a rotation while it lasts. */
export interface SecretKeys {
  current: string;
  previous?: string;
}

export function secretKeys(env: { APP_SECRET: string; APP_SECRET_PREVIOUS?: string }): SecretKeys {
  return env.APP_SECRET_PREVIOUS
    ? { current: env.APP_SECRET, previous: env.APP_SECRET_PREVIOUS }
    : { current: env.APP_SECRET };
}

/**
 * Opens a stored secret under the current key or, failing that, the previous one; `stale` says it should be
 * sealed again under the current key.
 */
export async function openSecret(keys: SecretKeys, ciphertext: string): Promise<{ plaintext: string; stale: boolean }> {
  try {
    return { plaintext: await decryptSecret(keys.current, ciphertext), stale: false };
  } catch (err) {
    if (!keys.previous) throw err;
    return { plaintext: await decryptSecret(keys.previous, ciphertext), stale: true };
  }
}

export async function encryptSecret(secret: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await aesKey(secret), encoder.encode(plaintext));
  return `${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

export async function decryptSecret(secret: string, ciphertext: string): Promise<string> {
  const [iv, sealed] = ciphertext.split(".");
  if (!iv || !sealed) throw new Error("Malformed ciphertext");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64Url(iv) },
    await aesKey(secret),
    fromBase64Url(sealed),
  );
  return new TextDecoder().decode(plain);
}
