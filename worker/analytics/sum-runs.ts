/**
 * @module The runs sums travel and are stored in: parts of a handoff (handoff.ts), a reducer's log rows and a
 * settle's pending rows (reducer.ts). Plain data, no bindings.
 */

/**
 * Sums per part of a handoff (`hold`), and per stored row of sums: a range of many distinct URLs (a visitor asking
 * for random paths) travels in parts, each far below a Durable Object call's 32 MiB, and by `sumChunks` below D1's
 * and a Durable Object's 2 MB per value whatever the URLs' length (about 200 bytes a sum of a short URL).
 */
export const HOLD_MAX_SUMS = 5_000;
/** The JSON a part or a stored row of sums may hold, about: below the 2 MB a value may take in D1 or a reducer. */
export const SUMS_MAX_BYTES = 1_500_000;

const utf8 = new TextEncoder();
/** About a sum's JSON: its URL in UTF-8 and 200 bytes for the rest (its customer, day, mapping and counts). */
const sumBytes = (sum: { url: string }) => utf8.encode(sum.url).byteLength + 200;

/** The sums in order, in runs of at most `HOLD_MAX_SUMS` sums and about `SUMS_MAX_BYTES` each (one sum at least). */
export const sumChunks = <T extends { url: string }>(sums: Iterable<T>): T[][] => [...sumRuns(sums)];

/** `sumChunks` one run at a time, so that a caller writing each run down keeps only one in memory. */
export function* sumRuns<T extends { url: string }>(sums: Iterable<T>): Generator<T[]> {
  let run: T[] = [];
  let bytes = 0;
  for (const sum of sums) {
    const size = sumBytes(sum);
    if (run.length > 0 && (run.length >= HOLD_MAX_SUMS || bytes + size > SUMS_MAX_BYTES)) {
      yield run;
      run = [];
      bytes = 0;
    }
    run.push(sum);
    bytes += size;
  }
  if (run.length > 0) yield run;
}
