import { describe, expect, it } from "vitest";
import type { VisitorTally } from "../messages/analytics";
import { OVERFLOW_DEPTH, OVERFLOW_EPSILON } from "./reducer-overflow";
import { VISITOR_DAILY_QUOTA, VISITOR_QUOTA_FLOOR, VisitorCounts, visitorDailyQuota } from "./reducer-visitors";

const DAY = "2026-11-26";

const tally = (over: Partial<VisitorTally>): VisitorTally => ({
  userId: "u1",
  day: DAY,
  visitor: "v1",
  n: 1,
  delivered: 1,
  deliveredAt: [1],
  ...over,
});

/** `n` views of which the ones at `deliveredAt` were delivered. */
const views = (n: number, deliveredAt: number[], over: Partial<VisitorTally> = {}) =>
  tally({
    n,
    delivered: deliveredAt.length,
    deliveredAt: deliveredAt.filter((at) => at <= VISITOR_DAILY_QUOTA),
    ...over,
  });

describe("visitors' counts", () => {
  it(`bill a visitor's first ${VISITOR_DAILY_QUOTA} views of a customer a day, delivered or not, in the order seen`, () => {
    const counts = new VisitorCounts();
    // 490 views, every one delivered: all billed.
    const first = counts.bill([
      views(
        490,
        Array.from({ length: 490 }, (_, i) => i + 1),
      ),
    ]);
    expect(first.unbilled.size).toBe(0);
    // 20 more: the first 10 spend the rest of the share. Of the delivered ones (2nd, 10th, 11th, 20th) two are in it.
    const second = counts.bill([views(20, [2, 10, 11, 20])]);
    expect(second.unbilled.get("u1")).toEqual([10, 2]);
    // Past the share, nothing is billed.
    expect(counts.bill([views(3, [1, 2])]).unbilled.get("u1")).toEqual([3, 2]);
    // Another visitor, another customer, another day: shares of their own.
    const others = counts.bill([
      views(5, [1], { visitor: "v2" }),
      views(5, [1], { userId: "u2" }),
      views(5, [1], { day: "2026-11-27" }),
    ]);
    expect(others.unbilled.size).toBe(0);
    expect(counts.size).toBe(4);
  });

  it("give each visitor 2 % of the customer's smallest limit a day, at least the floor and at most 500", () => {
    expect(visitorDailyQuota(1_000)).toBe(20);
    expect(visitorDailyQuota(100)).toBe(VISITOR_QUOTA_FLOOR);
    expect(visitorDailyQuota(1_000_000)).toBe(VISITOR_DAILY_QUOTA);
    expect(visitorDailyQuota(null)).toBe(VISITOR_DAILY_QUOTA);
  });

  it("bill each customer's visitors within the budget the handoff names, and 500 where it names none (older parts)", () => {
    const counts = new VisitorCounts();
    const quotas = { free: visitorDailyQuota(1_000) };
    const all = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const { unbilled } = counts.bill(
      [views(30, all(30), { userId: "free" }), views(30, all(30), { userId: "older" })],
      quotas,
    );
    expect(unbilled.get("free")).toEqual([10, 10]);
    expect(unbilled.has("older")).toBe(false);
    // The same visitor later that day: past the share, nothing more is billed.
    expect(counts.bill([views(5, all(5), { userId: "free" })], quotas).unbilled.get("free")).toEqual([5, 5]);
  });

  it("are written down as they are counted, and read back to the same bills", () => {
    const counts = new VisitorCounts();
    const { counted } = counts.bill([views(VISITOR_DAILY_QUOTA - 1, []), views(7, [], { visitor: "v2" })]);
    const again = new VisitorCounts();
    for (const [day, triples] of counted) again.load(day, triples);
    expect(again.bill([views(2, [1, 2])]).unbilled.get("u1")).toEqual([1, 1]);

    const dumped = new VisitorCounts();
    for (const [day, , triples] of again.dump()) dumped.load(day, triples);
    expect(dumped.size).toBe(2);
    expect(dumped.bill([views(1, [1])]).unbilled.get("u1")).toEqual([1, 1]);
  });

  it("keep many visitors apart as their table grows, and forget past days", () => {
    const counts = new VisitorCounts();
    const many = Array.from({ length: 50_000 }, (_, i) => views(1, [], { visitor: `v${i}` }));
    counts.bill(many);
    counts.bill([views(1, [], { day: "2026-11-25" })]);
    expect(counts.size).toBe(50_001);
    // Each of them has had exactly one view: one more of each is billed, the share's last is not.
    expect(counts.bill(many).unbilled.size).toBe(0);
    expect(counts.bill([views(VISITOR_DAILY_QUOTA - 2, [], { visitor: "v7" })]).unbilled.size).toBe(0);
    expect(counts.bill([views(1, [], { visitor: "v7" })]).unbilled.get("u1")).toEqual([1, 0]);

    counts.forgetBefore(DAY);
    expect(counts.size).toBe(50_000);
  });

  describe("past the table's cap", () => {
    /** A reducer whose table holds `cap` visitors, full of one day's `filler` visitors. */
    const fullCounts = (cap: number) => {
      const counts = new VisitorCounts(cap);
      counts.bill(Array.from({ length: cap }, (_, i) => views(1, [], { visitor: `filler${i}` })));
      expect(counts.full).toBe(true);
      return counts;
    };

    it("bill no visitor beyond their daily budget, however many handoffs bring their views", () => {
      const counts = fullCounts(100);
      const visitors = Array.from({ length: 50 }, (_, i) => `late${i}`);
      const quotas = { free: visitorDailyQuota(1_000) };
      const billed = new Map<string, number>();
      // Every minute one view of each, on two customers: a metered one (500 a day) and Free (20 a day).
      for (let handoff = 0; handoff < 600; handoff++) {
        const tallies = visitors.flatMap((visitor) => [
          views(1, [1], { userId: `u-${visitor}`, visitor }),
          views(1, [1], { userId: "free", visitor }),
        ]);
        const { unbilled } = counts.bill(tallies, quotas);
        for (const visitor of visitors) {
          const spent = 1 - (unbilled.get(`u-${visitor}`)?.[0] ?? 0);
          billed.set(visitor, (billed.get(visitor) ?? 0) + spent);
        }
        if (handoff === 599) expect(unbilled.get("free")).toEqual([50, 50]);
      }
      for (const visitor of visitors) expect(billed.get(visitor)).toBe(VISITOR_DAILY_QUOTA);
      expect(counts.size).toBe(100);
    });

    it(`keep each estimate at or above the true count, and within ε·N of it but for at most e^-${OVERFLOW_DEPTH} of 200,000 overflow visitors`, () => {
      const counts = fullCounts(1_000);
      const visitors = 200_000;
      const viewsOf = (i: number) => 1 + (((i * 2_654_435_761) >>> 0) % 5);
      let overflowViews = 0;
      for (let from = 0; from < visitors; from += 10_000) {
        const tallies = Array.from({ length: 10_000 }, (_, j) =>
          views(viewsOf(from + j), [], { visitor: `o${from + j}` }),
        );
        counts.bill(tallies);
        overflowViews += tallies.reduce((sum, t) => sum + t.n, 0);
      }
      const bound = OVERFLOW_EPSILON * overflowViews;
      let beyond = 0;
      let worst = 0;
      for (let i = 0; i < visitors; i++) {
        const excess = counts.seen("u1", DAY, `o${i}`) - viewsOf(i);
        expect(excess).toBeGreaterThanOrEqual(0);
        worst = Math.max(worst, excess);
        if (excess > bound) beyond += 1;
      }
      console.log(
        `${visitors} overflow visitors, ${overflowViews} views: ε·N = ${bound.toFixed(2)}, worst excess ${worst}, ${beyond} beyond ε·N`,
      );
      expect(beyond).toBeLessThanOrEqual(Math.exp(-OVERFLOW_DEPTH) * visitors);
      // The visitors the table holds stay exact.
      expect(counts.seen("u1", DAY, "filler7")).toBe(1);
    });

    it("are written down as they are counted, overflow and all, and read back to the same bills", () => {
      // The first handoff's first 50 visitors fill the table, the rest overflow.
      const cap = 50;
      const counts = new VisitorCounts(cap);
      const log: { counted: Map<string, number[]>; overflowed: Map<string, number[]> }[] = [];
      const batch = (handoff: number) =>
        Array.from({ length: 2_000 }, (_, i) => views(1 + ((i + handoff) % 7), [], { visitor: `w${i}` }));
      for (let handoff = 0; handoff < 40; handoff++) log.push(counts.bill(batch(handoff)));
      // Compacted half way: the table's triples and the sketch's counters, then the later handoffs' overflow.
      const compacted = new VisitorCounts(cap);
      const again = new VisitorCounts(cap);
      for (const [i, { counted, overflowed }] of log.entries()) {
        if (i === 20) {
          for (const [day, , triples] of again.dump()) compacted.load(day, triples);
          for (const [day, chunk, counters] of again.dumpOverflow()) compacted.loadOverflowChunk(day, chunk, counters);
        }
        for (const reader of i < 20 ? [again] : [again, compacted]) {
          for (const [day, triples] of counted) reader.load(day, triples);
          for (const [day, triples] of overflowed) reader.loadOverflow(day, triples);
        }
      }
      const next = [...batch(40), views(VISITOR_DAILY_QUOTA, [1, 2, 3], { visitor: "w3" })];
      const bills = counts.bill(next).unbilled;
      expect(bills.get("u1")![0]).toBeGreaterThan(0);
      expect(again.bill(next).unbilled).toEqual(bills);
      expect(compacted.bill(next).unbilled).toEqual(bills);
      expect(compacted.size).toBe(cap);
    });
  });
});
