/**
 * One reducer's memory at its caps (performance review of 2026-11-27, risk 3): its visitors at `MAX_VISITORS` with
 * the overflow sketches of two days (yesterday's and today's, all a reducer keeps; risk 4), its sums
 * at `MAX_HELD_BYTES` (short URLs, and the longest a stranger may send), and a settle of everything with the visitors'
 * log rewritten at the same moment, all live at once. Measured in Node with forced garbage collection: a Durable
 * Object's isolate has 128 MB, and this keeps one reducer under half of it.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { URL_MAX_LENGTH } from "#contract/input-caps";
import type { HeldSum, VisitorTally } from "../messages/analytics";
import { sumRuns } from "./sum-runs";
import { HeldSums, MAX_HELD_BYTES, MAX_HELD_SUMS, settleGroups } from "./reducer-sums";
import { OverflowSketch } from "./reducer-overflow";
import { MAX_VISITORS, VisitorCounts } from "./reducer-visitors";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MB = 1024 * 1024;
/** Half a Durable Object's 128 MB. */
const BUDGET = 64 * MB;

function liveBytes(): number {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const CUSTOMERS = 1_000;
const userOf = (i: number) => `customer-${i % CUSTOMERS}`.padEnd(16, "0");

/** Sums of distinct URLs of `urlLength` characters, `count` of them or until the reducer would settle them. */
function heldAtCap(urlLength: number, count = Infinity): HeldSums {
  const held = new HeldSums();
  for (let i = 0; held.size < count && held.size <= MAX_HELD_SUMS && held.bytes <= MAX_HELD_BYTES;) {
    const part: HeldSum[] = [];
    for (let j = 0; j < 1_000 && held.size + j < count; j++, i++) {
      const path = `/${String(i).padStart(10, "0")}`;
      part.push({
        userId: userOf(i),
        url: `shop.test${path}${"p".repeat(Math.max(0, urlLength - 9 - path.length))}`,
        day: "2026-11-27",
        mappingId: i % 2 ? null : i,
        crawler: 0,
        n: 3,
        delivered: 1,
        timestamp: 1_795_000_000_000 + i,
      });
    }
    held.add(part);
  }
  return held;
}

function visitorsAtCap(): VisitorCounts {
  const visitors = new VisitorCounts();
  for (let i = 0; i < MAX_VISITORS;) {
    const tallies: VisitorTally[] = [];
    for (let j = 0; j < 50_000 && i < MAX_VISITORS; j++, i++) {
      tallies.push({
        userId: userOf(i),
        day: "2026-11-27",
        visitor: `v${i}`.padEnd(16, "x"),
        n: 1,
        delivered: 1,
        deliveredAt: [1],
      });
    }
    visitors.bill(tallies);
  }
  // Past the cap: visitors of yesterday and today counted in their days' sketches.
  for (const day of ["2026-11-26", "2026-11-27"]) {
    visitors.bill(
      Array.from({ length: 10_000 }, (_, i) => ({
        userId: userOf(i),
        day,
        visitor: `late${i}`,
        n: 2,
        delivered: 1,
        deliveredAt: [1],
      })),
    );
  }
  return visitors;
}

describe("one reducer at its caps", () => {
  it.each([
    ["60-character URLs", 60],
    [`the longest URLs (${URL_MAX_LENGTH} characters)`, URL_MAX_LENGTH],
  ])(
    "stays under half of a Durable Object's 128 MB with %s, while it settles and rewrites its log",
    (_, length) => {
      const before = liveBytes();
      const visitors = visitorsAtCap();
      const held = heldAtCap(length);
      expect(visitors.size).toBe(MAX_VISITORS);
      expect(visitors.overflowBytes).toBe(2 * OverflowSketch.bytes);
      const holding = liveBytes() - before;
      // A settle of everything (reducer.ts settleNow): the customers' sums taken group by group, each group's JSON made;
      // and the visitors' log rewritten at the same moment (reducer.ts compactVisitors: a row at a time, the table's
      // triples and the sketches' counters, each copied as it is written).
      const sums = held.size;
      const log = [visitors.dump().next().value![2].slice(), visitors.dumpOverflow().next().value![2].slice()];
      // Measured at the first group and the last (the groups' JSON is alike; nothing held is freed until the end).
      const groups = settleGroups(held, held.customers());
      let peak = 0;
      for (const [i, group] of groups.entries()) {
        const settled = Array.from(sumRuns(held.takeEach(group)), (run) => JSON.stringify(run));
        if (i === 0 || i === groups.length - 1) peak = Math.max(peak, liveBytes() - before);
        expect(settled.length).toBeGreaterThan(0);
      }
      console.log(
        `${length}-character URLs: ${sums} sums, ${MAX_VISITORS} visitors and two overflow sketches hold ` +
          `${(holding / MB).toFixed(1)} MB, ${(peak / MB).toFixed(1)} MB while settling`,
      );
      expect(held.size).toBe(0);
      expect(log.length).toBe(2);
      expect(peak).toBeLessThan(BUDGET);
    },
    60_000,
  );
});

describe("held sums", () => {
  it("take under 200 bytes each for 60-character URLs (515 as a Map of string keys before issue 43)", () => {
    const before = liveBytes();
    const held = heldAtCap(60, 100_000);
    const perSum = (liveBytes() - before) / held.size;
    console.log(`100,000 held sums of 60-character URLs: ${perSum.toFixed(0)} bytes each, ${held.bytes} bytes counted`);
    expect(held.size).toBe(100_000);
    expect(perSum).toBeLessThan(200);
    expect(held.bytes / held.size).toBeGreaterThan(perSum * 0.8);
  });
});
