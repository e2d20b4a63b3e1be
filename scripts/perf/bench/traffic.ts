/**
 * @module What the bench's simulated page views share, in Node and in workerd: a month as the bench counts it, a
 * seeded generator, the ids and URLs of seeded customers' pages, and a page view as the simulation takes it. The
 * realistic platform's views are drawn by platform-model.ts.
 */

/** A month as the projections count it: 30 days. */
export const MONTH_SECONDS = 30 * 86_400;

/** A seeded generator (mulberry32): uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Customer c (from 1) of scenario n, as seed.ts names them: a 16-character id as the Worker issues them. */
export const userIdOf = (scenario: number, c: number) => `b${scenario}${String(c).padStart(14, "0")}`;
/** The normalised URL of customer c's item i, as seed.ts writes it. */
export const normalizedUrlOf = (scenario: number, c: number, item: number) =>
  `s${scenario}c${c}.example/products/item-${item}`;

export interface SimulatedView {
  userId: string;
  /** Customer (from 1) and item (from 1) of the kind. */
  customer: number;
  item: number;
  /** The page URL as the snippet sends it (without its hash). */
  url: string;
  normalizedUrl: string;
  /** Null: the page has no mapping (the platform's unmapped pages). */
  mappingId: number | null;
  /** The visitor's address (what `CF-Connecting-IP` would say). */
  visitor: string;
  userAgent: string;
  referer: string;
  /** Virtual epoch ms. */
  timestamp: number;
}
