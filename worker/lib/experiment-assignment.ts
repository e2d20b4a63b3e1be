/**
 * @module Which variant of an experiment a visitor sees. The answer is a pure function of the visitor's id and the
 * experiment's id, so it needs no storage and stays the same on every page view: the pair is hashed (FNV-1a 32-bit
 * over the UTF-8 bytes of `${experimentId}:${visitorId}`, then murmur3's fmix32 finaliser to spread FNV's weak
 * low bits) to one of 10,000 buckets, and the buckets are shared out by the variants' cumulative weights. Hashing
 * the experiment's id in makes experiments independent: a visitor in the first variant of one is not more likely
 * to be in the first variant of another. Synchronous and allocation-light, as it runs on every page view.
 */

import { fmix32, fnv1a32 } from "./hash";

export const BUCKETS = 10_000;

/** The visitor's bucket in the experiment, in [0, BUCKETS). 2^32 mod 10,000 leaves a bias of about 2e-6: none to see. */
export function bucketOf(visitorId: string, experimentId: string): number {
  return fmix32(fnv1a32(`${experimentId}:${visitorId}`)) % BUCKETS;
}

/**
 * The index of the variant the visitor sees, for the variants' weights in order (whole numbers adding up to 100,
 * as contract/experiments.ts checks): a bucket below the cumulative weight's share of the buckets falls there.
 * The weights are scaled by their sum, so a list that does not add up to 100 still splits in proportion.
 */
export function assignVariant(visitorId: string, experimentId: string, weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const bucket = bucketOf(visitorId, experimentId);
  let cumulative = 0;
  for (const [index, weight] of weights.entries()) {
    cumulative += weight;
    if (bucket * total < cumulative * BUCKETS) return index;
  }
  return weights.length - 1;
}

/**
 * Whether the visitor is in the holdout of an audience mapping (docs/audiences.md, "Holdout"): `share` percent of
 * visitor ids, hashed with the holdout's run as an experiment's variant is, the holdout being the first "variant".
 */
export function heldOut(visitorId: string, holdoutId: string, share: number): boolean {
  return assignVariant(visitorId, holdoutId, [share, 100 - share]) === 0;
}
