import { describe, expect, it } from "vitest";
import type { HeldSum } from "../messages/analytics";
import { HeldSums } from "./reducer-sums";

const sum = (over: Partial<HeldSum>): HeldSum => ({
  userId: "u1",
  url: "shop.test/a",
  day: "2026-11-26",
  mappingId: null,
  crawler: 0,
  n: 1,
  delivered: 0,
  timestamp: 1_000,
  ...over,
});

describe("held sums", () => {
  it("add up per customer, URL, day, mapping and crawler flag, and give back exactly what was added", () => {
    const held = new HeldSums();
    held.add([
      sum({ n: 2, delivered: 1, timestamp: 3_000 }),
      sum({ n: 3, delivered: 3, timestamp: 2_000 }),
      sum({ mappingId: 42, crawler: 1, n: 1, delivered: 1 }),
      sum({ day: "2026-11-25" }),
      sum({ userId: "u2" }),
    ]);
    expect(held.size).toBe(4);
    expect(held.customers().sort()).toEqual(["u1", "u2"]);
    expect(held.list()).toHaveLength(4);

    expect(held.take("u1")).toEqual([
      sum({ n: 5, delivered: 4, timestamp: 3_000 }),
      sum({ mappingId: 42, crawler: 1, n: 1, delivered: 1 }),
      sum({ day: "2026-11-25" }),
    ]);
    expect(held.has("u1")).toBe(false);
    expect(held.size).toBe(1);
    expect(held.take("u1")).toEqual([]);
  });

  it("keep a sum's URL known only while every part added to it was, through a rebuild too", () => {
    const held = new HeldSums();
    held.add([
      sum({ known: 1 }),
      sum({ known: 1, day: "2026-11-25" }),
      sum({ known: 1, day: "2026-11-25" }),
      sum({ known: 1, url: "shop.test/b" }),
    ]);
    // A later part found the URL new (its mapping deleted, say): the sum stays new whatever comes after. Parts that
    // all found it in "other pages" (2) keep that; one that found it on its row does not.
    held.add([sum({ url: "shop.test/b" }), sum({ known: 1, url: "shop.test/b" })]);
    held.add([sum({ known: 2, url: "shop.test/c" }), sum({ known: 2, url: "shop.test/c" })]);
    held.add([sum({ known: 2, url: "shop.test/d" }), sum({ known: 1, url: "shop.test/d" })]);
    expect(held.heldOf("u1").map(({ url, day, known }) => [url, day, known])).toEqual([
      ["shop.test/a", "2026-11-26", 1],
      ["shop.test/a", "2026-11-25", 1],
      ["shop.test/b", "2026-11-26", undefined],
      ["shop.test/c", "2026-11-26", 2],
      ["shop.test/d", "2026-11-26", undefined],
    ]);
    // Rows taken are reclaimed by copying the live ones when a page of rows is full: the flag goes with them.
    held.add([sum({ userId: "u2", known: 1 })]);
    held.add(Array.from({ length: 8_192 - held.size }, (_, i) => sum({ url: `shop.test/${i}` })));
    held.take("u1");
    const full = held.bytes;
    held.add([sum({ userId: "u3" })]);
    expect(held.bytes).toBeLessThan(full);
    expect(held.take("u2")).toEqual([sum({ userId: "u2", known: 1 })]);
  });

  it("say since when a customer's sums are held: from their first sum after a settle, not known when read back", () => {
    const held = new HeldSums();
    expect(held.heldSince("u1")).toBeNull();
    held.addUnbilled("u1", 1, 1);
    expect(held.heldSince("u1")).toBeNull();
    held.add([sum({})], 5_000);
    held.add([sum({ url: "shop.test/b" })], 9_000);
    expect(held.heldSince("u1")).toBe(5_000);
    held.take("u1");
    expect(held.heldSince("u1")).toBeNull();
    held.add([sum({})], 0);
    held.add([sum({ url: "shop.test/b" })], 9_000);
    expect(held.heldSince("u1")).toBe(0);
  });
});

/** What `HeldSums` must give back, kept the plain way: a Map by the whole key. */
function reference(sums: HeldSum[]) {
  const byKey = new Map<string, HeldSum>();
  for (const s of sums) {
    const key = JSON.stringify([s.userId, s.url, s.day, s.mappingId, s.crawler]);
    const same = byKey.get(key);
    if (same) {
      same.n += s.n;
      same.delivered += s.delivered;
      same.timestamp = Math.max(same.timestamp, s.timestamp);
    } else byKey.set(key, { ...s });
  }
  return byKey;
}
const sorted = (sums: HeldSum[]) => [...sums].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe("held sums kept in columns", () => {
  it("never merge two keys whose hashes collide: every URL, day, mapping and flag is compared whole", () => {
    const held = new HeldSums(() => 7);
    const sums = [
      sum({ url: "shop.test/a" }),
      sum({ url: "shop.test/b" }),
      sum({ url: "shop.test/a", n: 4 }),
      sum({ url: "shop.test/ä" }),
      sum({ url: "shop.test/a", mappingId: 0 }),
      sum({ url: "shop.test/a", mappingId: 1 }),
      sum({ url: "shop.test/a", crawler: 1 }),
      sum({ url: "shop.test/a", day: "2026-11-27" }),
      sum({ url: "shop.test/a", userId: "u2" }),
      sum({ url: "shop.test/ab" }),
    ];
    held.add(sums);
    expect(held.size).toBe(9);
    expect(sorted(held.list())).toEqual(sorted([...reference(sums).values()]));
  });

  it("give back what a plain Map gives through growth, takes and the rows taken reclaimed", () => {
    const held = new HeldSums();
    const added: HeldSum[] = [];
    let seed = 1;
    const random = (below: number) => ((seed = Math.imul(seed, 48271) % 0x7fffffff) >>> 0) % below;
    for (let round = 0; round < 4; round++) {
      const part = Array.from({ length: 3_000 }, () =>
        sum({
          userId: `u${random(20)}`,
          url: `shop.test/${random(400)}${"é".repeat(random(3))}`,
          day: `2026-11-2${random(3)}`,
          mappingId: random(3) === 0 ? null : random(3),
          crawler: random(5) === 0 ? 1 : 0,
          n: 1 + random(3),
          delivered: random(2),
          timestamp: random(10_000),
        }),
      );
      held.add(part);
      added.push(...part);
      // Most customers taken every other round: the rows taken outnumber the live ones and are reclaimed.
      for (const userId of Array.from({ length: round % 2 ? 15 : 2 }, () => `u${random(20)}`)) {
        const taken = held.take(userId);
        const mine = added.filter((s) => s.userId === userId);
        expect(sorted(taken.map(({ unbilled: _, unbilledDelivered: __, ...s }) => s))).toEqual(
          sorted([...reference(mine).values()]),
        );
        added.splice(0, added.length, ...added.filter((s) => s.userId !== userId));
        expect(held.has(userId)).toBe(false);
      }
      expect(sorted(held.list())).toEqual(sorted([...reference(added).values()]));
      expect(held.size).toBe(reference(added).size);
    }
  });

  it("take the customer's unbilled views with their sums, and free their memory once nothing is held", () => {
    const held = new HeldSums();
    const empty = held.bytes;
    held.add(Array.from({ length: 5_000 }, (_, i) => sum({ url: `shop.test/${i}` })));
    held.addUnbilled("u1", 3, 2);
    expect(held.bytes).toBeGreaterThan(empty);
    const taken = held.take("u1");
    expect(taken).toHaveLength(5_000);
    expect(taken[0]).toMatchObject({ url: "shop.test/0", unbilled: 3, unbilledDelivered: 2 });
    expect(held.bytes).toBe(empty);
  });
});
