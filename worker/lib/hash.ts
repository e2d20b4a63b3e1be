/**
 * @module The small non-cryptographic hashes the Worker spreads things with, each fixed forever once used: a
 * change would move visitors to other variants, customers to other reducers and visitors to other counters.
 * - `fnv1a32`: FNV-1a, 32 bits, over the UTF-8 bytes; its low bits are weak, so `fmix32` spreads them where the
 *   result is cut into buckets.
 * - `cyrb53Lanes`: cyrb53's two 32-bit lanes over the UTF-16 code units, for a 64-bit key.
 */

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const utf8 = new TextEncoder();

export const fnv1a32 = (text: string): number => fnv1a32Bytes(utf8.encode(text));

/** `fnv1a32` of `length` bytes from `from`, already UTF-8 (analytics/reducer-sums.ts hashes URLs so). */
export function fnv1a32Bytes(bytes: Uint8Array, from = 0, length = bytes.length - from): number {
  let hash = FNV_OFFSET_BASIS;
  for (let i = from; i < from + length; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash >>> 0;
}

/** murmur3's 32-bit finaliser: every input bit moves every output bit. */
export function fmix32(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** cyrb53 (seed 0), both 32-bit lanes kept: `[h1, h2]`; cyrb53's own 53-bit value is `(h2 & 0x1fffff) * 2^32 + h1`. */
export function cyrb53Lanes(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}
