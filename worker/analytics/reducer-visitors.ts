/**
 * @module The per-visitor budget as a reducer (reducer.ts) keeps it: how many views each visitor of a metered
 * customer has had today, and so which of a handoff's views spend the customer's quota. A view spends it unless a
 * known crawler asked or its visitor (a daily hash of their address) has already had `VISITOR_DAILY_QUOTA` of that
 * customer's views that day (`visitorDailyQuota`: a small share of the customer's limit); the rest are counted apart,
 * as not billed.
 *
 * A visitor is held as a 64-bit hash of customer and visitor (two 32-bit halves) and a count, in one open-addressing
 * table per day of typed arrays: 10 bytes a slot, at most 20 a visitor, where a `Map` of strings takes about 100. Two
 * visitors share a slot only if both halves collide (about one pair in 10^19 per day), and then only add up their
 * counts. Plain data and arithmetic, no bindings.
 *
 * Past `MAX_VISITORS` a day's new visitors are counted in that day's overflow sketch (reducer-overflow.ts), whose
 * estimate never under-counts: no visitor is billed past their budget, and a few may stop being billed early by a
 * bounded number of views.
 */
import type { VisitorTally } from "../messages/analytics";
import { cyrb53Lanes } from "../lib/hash";
import { OverflowSketch } from "./reducer-overflow";

/**
 * A visitor's views a day that spend a customer's quota, at most; the rest are counted but not billed. A customer
 * with a smaller limit gives each visitor `VISITOR_QUOTA_SHARE` of it (`visitorDailyQuota`).
 */
export const VISITOR_DAILY_QUOTA = 500;
/** The share of a plan's limit one visitor (address, IPv6 /64) may spend a day: 50 addresses to spend it all. */
export const VISITOR_QUOTA_SHARE = 0.02;
/** The least a visitor may spend a day, however small the limit. */
export const VISITOR_QUOTA_FLOOR = 10;

/**
 * A visitor's daily budget at a customer whose smallest limit (requests or deliveries per period) is `limit`:
 * `VISITOR_QUOTA_SHARE` of it, between `VISITOR_QUOTA_FLOOR` and `VISITOR_DAILY_QUOTA` (Free's 1,000: 20).
 */
export function visitorDailyQuota(limit: number | null): number {
  if (limit === null) return VISITOR_DAILY_QUOTA;
  return Math.min(VISITOR_DAILY_QUOTA, Math.max(VISITOR_QUOTA_FLOOR, Math.floor(limit * VISITOR_QUOTA_SHARE)));
}
/**
 * Visitors one reducer counts exactly, all days together: at most 32 MB of tables (with a resize in flight), beside
 * the held sums (reducer-sums.ts) and the overflow sketches, within half a Durable Object's 128 MB
 * (reducer-memory.node.test.ts). A day's visitors past it are counted in its overflow sketch.
 */
export const MAX_VISITORS = 1_500_000;
/** Visitors per row of the reducer's visitors' log: 1.2 MB of (hi, lo, views) triples, within a row's 2 MB. */
export const VISITORS_PER_ROW = 100_000;
/** A count never passes this (16 bits); only whether it passed the quota matters. */
const MAX_COUNT = 0xffff;
const FIRST_SLOTS = 1_024;

/** The two 32-bit halves of a visitor's hash (cyrb53's two lanes, both kept). */
const hashOf = (userId: string, visitor: string) => cyrb53Lanes(`${userId}\n${visitor}`);

/** One day's visitors: linear probing over a power-of-two number of slots; a count of 0 is an empty slot. */
class DayTable {
  private keys = new Uint32Array(FIRST_SLOTS * 2);
  private counts = new Uint16Array(FIRST_SLOTS);
  size = 0;

  private slotOf(hi: number, lo: number): number {
    const mask = this.counts.length - 1;
    let slot = lo & mask;
    while (this.counts[slot] !== 0 && (this.keys[slot * 2] !== hi || this.keys[slot * 2 + 1] !== lo)) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  get(hi: number, lo: number): number {
    return this.counts[this.slotOf(hi, lo)]!;
  }

  /** Adds `n` views to the visitor (n ≥ 1). */
  add(hi: number, lo: number, n: number): void {
    let slot = this.slotOf(hi, lo);
    const count = this.counts[slot]!;
    if (count === 0) {
      if ((this.size + 1) * 4 > this.counts.length * 3) {
        this.grow();
        slot = this.slotOf(hi, lo);
      }
      this.keys[slot * 2] = hi;
      this.keys[slot * 2 + 1] = lo;
      this.size += 1;
    }
    this.counts[slot] = Math.min(MAX_COUNT, count + n);
  }

  private grow() {
    const { keys, counts } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.counts = new Uint16Array(counts.length * 2);
    for (let slot = 0; slot < counts.length; slot++) {
      if (counts[slot] === 0) continue;
      const to = this.slotOf(keys[slot * 2]!, keys[slot * 2 + 1]!);
      this.keys[to * 2] = keys[slot * 2]!;
      this.keys[to * 2 + 1] = keys[slot * 2 + 1]!;
      this.counts[to] = counts[slot]!;
    }
  }

  /** Every visitor as (hi, lo, count) triples, `perChunk` visitors at a time (one chunk alive at once). */
  *triples(perChunk: number): Generator<Uint32Array> {
    let out = new Uint32Array(Math.min(this.size, perChunk) * 3);
    let i = 0;
    for (let slot = 0; slot < this.counts.length; slot++) {
      if (this.counts[slot] === 0) continue;
      out[i++] = this.keys[slot * 2]!;
      out[i++] = this.keys[slot * 2 + 1]!;
      out[i++] = this.counts[slot]!;
      if (i === out.length) {
        yield out;
        out = new Uint32Array(perChunk * 3);
        i = 0;
      }
    }
    if (i > 0) yield out.subarray(0, i);
  }
}

/** What a handoff's tallies cost the quota: per customer, the views and deliveries that spent none of it. */
export type Unbilled = Map<string, [requests: number, deliveries: number]>;

/** Visitors' views by day; `bill` counts a handoff's tallies and answers what spent no quota. */
export class VisitorCounts {
  private readonly days = new Map<string, DayTable>();
  private readonly overflow = new Map<string, OverflowSketch>();

  constructor(private readonly maxVisitors = MAX_VISITORS) {}

  /** The table holds its most visitors: a day's new visitors are counted in its overflow sketch. */
  get full(): boolean {
    return this.size >= this.maxVisitors;
  }

  /** Bytes of the overflow sketches held. */
  get overflowBytes(): number {
    return this.overflow.size * OverflowSketch.bytes;
  }

  get size(): number {
    let size = 0;
    for (const table of this.days.values()) size += table.size;
    return size;
  }

  private table(day: string): DayTable {
    let table = this.days.get(day);
    if (!table) this.days.set(day, (table = new DayTable()));
    return table;
  }

  private sketch(day: string): OverflowSketch {
    let sketch = this.overflow.get(day);
    if (!sketch) this.overflow.set(day, (sketch = new OverflowSketch()));
    return sketch;
  }

  /** The visitor's views counted that day: exact in the table, an estimate never below it in the overflow. */
  seen(userId: string, day: string, visitor: string): number {
    const [hi, lo] = hashOf(userId, visitor);
    return this.days.get(day)?.get(hi, lo) || (this.overflow.get(day)?.estimate(hi, lo) ?? 0);
  }

  /**
   * Bills the tallies in order (each after the visitor's views counted before it) and counts them, each visitor
   * within their customer's daily budget (`quotas`, `visitorDailyQuota`; `VISITOR_DAILY_QUOTA` for a customer it
   * does not name, as handoffs logged before it was sent). A visitor the table does not hold is counted in the
   * day's overflow sketch once the table is full, or once the sketch may hold them (so they never start again at 0).
   * Answers the unbilled views per customer, and what was counted as (hi, lo, views) triples per day, in the table
   * (`counted`) and in the overflow (`overflowed`, in order), for the reducer's log.
   */
  bill(
    tallies: readonly VisitorTally[],
    quotas: Readonly<Record<string, number>> = {},
  ): { unbilled: Unbilled; counted: Map<string, number[]>; overflowed: Map<string, number[]> } {
    const unbilled: Unbilled = new Map();
    const counted = new Map<string, number[]>();
    const overflowed = new Map<string, number[]>();
    for (const tally of tallies) {
      const quota = Math.min(VISITOR_DAILY_QUOTA, quotas[tally.userId] ?? VISITOR_DAILY_QUOTA);
      const [hi, lo] = hashOf(tally.userId, tally.visitor);
      const table = this.table(tally.day);
      const inTable = table.get(hi, lo);
      const estimate = inTable > 0 ? 0 : (this.overflow.get(tally.day)?.estimate(hi, lo) ?? 0);
      const inOverflow = inTable === 0 && (estimate > 0 || this.full);
      const before = inOverflow ? estimate : inTable;
      const billed = Math.max(0, Math.min(tally.n, quota - before));
      const billedDeliveries = tally.deliveredAt.filter((at) => before + at <= quota).length;
      if (billed < tally.n || billedDeliveries < tally.delivered) {
        const sum = unbilled.get(tally.userId) ?? [0, 0];
        unbilled.set(tally.userId, [sum[0] + tally.n - billed, sum[1] + tally.delivered - billedDeliveries]);
      }
      if (inOverflow) this.sketch(tally.day).add(hi, lo, tally.n);
      else table.add(hi, lo, tally.n);
      const log = inOverflow ? overflowed : counted;
      const day = log.get(tally.day) ?? [];
      if (day.length === 0) log.set(tally.day, day);
      day.push(hi, lo, tally.n);
    }
    return { unbilled, counted, overflowed };
  }

  /** Adds counts as `bill` answered them (`counted`) or `dump` wrote them: (hi, lo, views) triples. */
  load(day: string, triples: ArrayLike<number>): void {
    const table = this.table(day);
    for (let i = 0; i + 2 < triples.length; i += 3) {
      table.add(triples[i]!, triples[i + 1]!, triples[i + 2]!);
    }
  }

  /** Adds, in order, overflow counts as `bill` answered them (`overflowed`), after the chunks `dumpOverflow` wrote. */
  loadOverflow(day: string, triples: ArrayLike<number>): void {
    const sketch = this.sketch(day);
    for (let i = 0; i + 2 < triples.length; i += 3) sketch.add(triples[i]!, triples[i + 1]!, triples[i + 2]!);
  }

  /** Sets a chunk of a day's overflow sketch as `dumpOverflow` gave it. */
  loadOverflowChunk(day: string, chunk: number, counters: Uint16Array): void {
    this.sketch(day).loadChunk(chunk, counters);
  }

  /** Every day's counts as triples, `VISITORS_PER_ROW` at a time, to write down. */
  *dump(): Generator<[day: string, chunk: number, triples: Uint32Array]> {
    for (const [day, table] of this.days) {
      let chunk = 0;
      for (const triples of table.triples(VISITORS_PER_ROW)) yield [day, chunk++, triples];
    }
  }

  /** Every day's overflow sketch in chunks of counters, to write down. */
  *dumpOverflow(): Generator<[day: string, chunk: number, counters: Uint16Array]> {
    for (const [day, sketch] of this.overflow) {
      for (const [chunk, counters] of sketch.chunks()) yield [day, chunk, counters];
    }
  }

  /** Forgets the days before `day` (a visitor's hash is new each day, so nothing asks for them again). */
  forgetBefore(day: string): void {
    for (const old of [...this.days.keys()].filter((d) => d < day)) this.days.delete(old);
    for (const old of [...this.overflow.keys()].filter((d) => d < day)) this.overflow.delete(old);
  }
}
