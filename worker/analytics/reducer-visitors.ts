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
 */
import type { VisitorTally } from "../messages/analytics";

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
 * Visitors one reducer counts, all days together: at most 32 MB of tables (with a resize in flight), beside the
 * held sums' 35 MB (reducer.ts), within a Durable Object's 128 MB. A visitor past it is billed as new each handoff.
 */
export const MAX_VISITORS = 1_500_000;
/** A count never passes this (16 bits); only whether it passed the quota matters. */
const MAX_COUNT = 0xffff;
const FIRST_SLOTS = 1_024;

/** The two 32-bit halves of a visitor's hash (cyrb53's two lanes, both kept). */
function hashOf(userId: string, visitor: string): [number, number] {
  const text = `${userId}\n${visitor}`;
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

  /** Adds `n` views to the visitor (n ≥ 1); answers false, adding nothing, for a new visitor when `full`. */
  add(hi: number, lo: number, n: number, full: boolean): boolean {
    let slot = this.slotOf(hi, lo);
    const count = this.counts[slot]!;
    if (count === 0) {
      if (full) return false;
      if ((this.size + 1) * 4 > this.counts.length * 3) {
        this.grow();
        slot = this.slotOf(hi, lo);
      }
      this.keys[slot * 2] = hi;
      this.keys[slot * 2 + 1] = lo;
      this.size += 1;
    }
    this.counts[slot] = Math.min(MAX_COUNT, count + n);
    return true;
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

  /** Every visitor as (hi, lo, count) triples. */
  triples(): Uint32Array {
    const out = new Uint32Array(this.size * 3);
    let i = 0;
    for (let slot = 0; slot < this.counts.length; slot++) {
      if (this.counts[slot] === 0) continue;
      out[i++] = this.keys[slot * 2]!;
      out[i++] = this.keys[slot * 2 + 1]!;
      out[i++] = this.counts[slot]!;
    }
    return out;
  }
}

/** What a handoff's tallies cost the quota: per customer, the views and deliveries that spent none of it. */
export type Unbilled = Map<string, [requests: number, deliveries: number]>;

/** Visitors' views by day; `bill` counts a handoff's tallies and answers what spent no quota. */
export class VisitorCounts {
  private readonly days = new Map<string, DayTable>();
  private reachedMax = false;

  /** `MAX_VISITORS` are counted: a new visitor is billed as new each handoff until a day is forgotten. */
  get full(): boolean {
    return this.reachedMax;
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

  /**
   * Bills the tallies in order (each after the visitor's views counted before it) and counts them, each visitor
   * within their customer's daily budget (`quotas`, `visitorDailyQuota`; `VISITOR_DAILY_QUOTA` for a customer it
   * does not name, as handoffs logged before it was sent). Answers the unbilled views per customer, and what was
   * counted as (hi, lo, views) triples per day, for the reducer's log.
   */
  bill(
    tallies: readonly VisitorTally[],
    quotas: Readonly<Record<string, number>> = {},
  ): { unbilled: Unbilled; counted: Map<string, number[]> } {
    const unbilled: Unbilled = new Map();
    const counted = new Map<string, number[]>();
    for (const tally of tallies) {
      const quota = Math.min(VISITOR_DAILY_QUOTA, quotas[tally.userId] ?? VISITOR_DAILY_QUOTA);
      const [hi, lo] = hashOf(tally.userId, tally.visitor);
      const table = this.table(tally.day);
      const before = table.get(hi, lo);
      const billed = Math.max(0, Math.min(tally.n, quota - before));
      const billedDeliveries = tally.deliveredAt.filter((at) => before + at <= quota).length;
      if (billed < tally.n || billedDeliveries < tally.delivered) {
        const sum = unbilled.get(tally.userId) ?? [0, 0];
        unbilled.set(tally.userId, [sum[0] + tally.n - billed, sum[1] + tally.delivered - billedDeliveries]);
      }
      this.reachedMax ||= this.size >= MAX_VISITORS;
      if (table.add(hi, lo, tally.n, this.reachedMax)) {
        const day = counted.get(tally.day) ?? [];
        if (day.length === 0) counted.set(tally.day, day);
        day.push(hi, lo, tally.n);
      }
    }
    return { unbilled, counted };
  }

  /** Adds counts as `bill` answered them or `dump` wrote them: (hi, lo, views) triples. */
  load(day: string, triples: ArrayLike<number>): void {
    const table = this.table(day);
    for (let i = 0; i + 2 < triples.length; i += 3) {
      table.add(triples[i]!, triples[i + 1]!, triples[i + 2]!, false);
    }
  }

  /** Every day's counts as triples, to write down. */
  dump(): [day: string, triples: Uint32Array][] {
    return [...this.days].map(([day, table]) => [day, table.triples()]);
  }

  /** Forgets the days before `day` (a visitor's hash is new each day, so nothing asks for them again). */
  forgetBefore(day: string): void {
    for (const old of [...this.days.keys()].filter((d) => d < day)) this.days.delete(old);
    this.reachedMax = this.size >= MAX_VISITORS;
  }
}
