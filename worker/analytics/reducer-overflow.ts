/**
 * @module The visitors a reducer's table has no room for (reducer-visitors.ts `MAX_VISITORS`), one day's: a count-min
 * sketch of `OVERFLOW_DEPTH` rows of `OVERFLOW_WIDTH` 16-bit counters (4 MB), keyed by the visitor's 64-bit hash.
 * Its estimate of a visitor's views never falls below the true count, so billing against it never bills a visitor
 * past their daily budget; it may stop billing them early, by at most `OVERFLOW_EPSILON` × the day's views counted in
 * it, except with probability e^-depth per visitor (docs/scaling.md). Counts are added by conservative update (only
 * the counters at the minimum grow), which keeps the bound and makes the usual error far smaller. The same adds in
 * the same order give the same counters, so a reducer rebuilds it from its log.
 */
import { fmix32 } from "../lib/hash";

/**
 * Counters per row: a power of two. 2^19 keeps a reducer with two days' sketches under half of 128 MB
 * (reducer-memory.node.test.ts: 2^20 left 2 MB to spare, 2^19 leaves 10).
 */
export const OVERFLOW_WIDTH = 1 << 19;
/** Rows, each indexed by its own hash of the visitor. */
export const OVERFLOW_DEPTH = 4;
/** The bound on an estimate's excess, as a share of the views counted: e / width. */
export const OVERFLOW_EPSILON = Math.E / OVERFLOW_WIDTH;
/** A counter never passes this; every budget (at most 500) is far below it, so a saturated counter still refuses. */
const MAX_COUNTER = 0xffff;
/** A row of the reducer's storage holds this many counters: 1 MB, within a value's 2 MB. */
export const OVERFLOW_COUNTERS_PER_CHUNK = 1 << 19;
const ROW_SEEDS = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f];

export class OverflowSketch {
  private readonly counters = new Uint16Array(OVERFLOW_DEPTH * OVERFLOW_WIDTH);
  private readonly at = new Int32Array(OVERFLOW_DEPTH);

  static readonly bytes = OVERFLOW_DEPTH * OVERFLOW_WIDTH * 2;

  private locate(hi: number, lo: number): Int32Array {
    for (let row = 0; row < OVERFLOW_DEPTH; row++) {
      const h = fmix32((lo ^ Math.imul(hi ^ ROW_SEEDS[row]!, 0x9e3779b1)) >>> 0);
      this.at[row] = row * OVERFLOW_WIDTH + (h & (OVERFLOW_WIDTH - 1));
    }
    return this.at;
  }

  /** The visitor's views, at least as many as were added for them. */
  estimate(hi: number, lo: number): number {
    const at = this.locate(hi, lo);
    let least = MAX_COUNTER;
    for (let row = 0; row < OVERFLOW_DEPTH; row++) least = Math.min(least, this.counters[at[row]!]!);
    return least;
  }

  add(hi: number, lo: number, n: number): void {
    const to = Math.min(MAX_COUNTER, this.estimate(hi, lo) + n);
    const at = this.at;
    for (let row = 0; row < OVERFLOW_DEPTH; row++) {
      if (this.counters[at[row]!]! < to) this.counters[at[row]!] = to;
    }
  }

  /** The counters in chunks of `OVERFLOW_COUNTERS_PER_CHUNK`, as views (no copy), to write down. */
  *chunks(): Generator<[chunk: number, counters: Uint16Array]> {
    for (let chunk = 0; chunk * OVERFLOW_COUNTERS_PER_CHUNK < this.counters.length; chunk++) {
      const from = chunk * OVERFLOW_COUNTERS_PER_CHUNK;
      yield [chunk, this.counters.subarray(from, from + OVERFLOW_COUNTERS_PER_CHUNK)];
    }
  }

  /** Sets a chunk as `chunks` gave it. */
  loadChunk(chunk: number, counters: Uint16Array): void {
    this.counters.set(counters, chunk * OVERFLOW_COUNTERS_PER_CHUNK);
  }
}
