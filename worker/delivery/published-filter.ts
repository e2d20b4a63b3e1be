/**
 * @module Which of a customer's URLs may have an entry, in their state (store.ts `CustomerState.published`): a Bloom
 * filter of the normalised URLs (and prefixes) that deliver something, so that a page view of a URL without a
 * mapping, whose customer's state is known at the location, reads no URL entry at all. It never says "no" of a URL
 * it was made with; of another it says "maybe" about once in a hundred (`BITS_PER_URL`, `PROBES`), which then reads
 * the entry as before. Customers with more URLs than `PUBLISHED_FILTER_MAX_URLS` get none (every URL is read), so a
 * state stays under 28 KB. The bits are kept in base64's digits and probed in place: nothing is decoded per view.
 *
 * (Libraries' Bloom filters export JSON arrays several times this size; the hashes are lib/hash.ts's.)
 */
import { cyrb53Lanes } from "../lib/hash";

/** The most URLs a filter is made for: 27,307 characters at `BITS_PER_URL`. */
export const PUBLISHED_FILTER_MAX_URLS = 16_384;
/** 10 bits a URL and 7 probes: a URL it was not made with passes about 0.8 % of the time. */
const BITS_PER_URL = 10;
const PROBES = 7;
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const SIXES = new Map([...BASE64].map((char, value) => [char, value]));

/** The filter's bit positions for a URL (double hashing over cyrb53's two lanes), in a filter of `bits` bits. */
function* positions(url: string, bits: number): Generator<number> {
  const [h1, h2] = cyrb53Lanes(url);
  for (let i = 0; i < PROBES; i++) yield ((h1 + Math.imul(i, h2 | 1)) >>> 0) % bits;
}

/** A filter of these URLs (at most `PUBLISHED_FILTER_MAX_URLS`): 6 bits a character, in base64's digits. */
export function publishedFilter(urls: readonly string[]): string {
  const chars = Math.max(1, Math.ceil((urls.length * BITS_PER_URL) / 6));
  const sixes = new Uint8Array(chars);
  for (const url of urls) {
    for (const bit of positions(url, chars * 6)) sixes[Math.floor(bit / 6)]! |= 1 << (bit % 6);
  }
  return Array.from(sixes, (six) => BASE64[six]).join("");
}

/** Whether the URL may have an entry: always for a URL the filter was made with. */
export function mayBePublished(filter: string, url: string): boolean {
  for (const bit of positions(url, filter.length * 6)) {
    if (((SIXES.get(filter[Math.floor(bit / 6)]!) ?? 63) & (1 << (bit % 6))) === 0) return false;
  }
  return true;
}
