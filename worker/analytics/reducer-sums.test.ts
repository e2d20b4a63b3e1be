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
});
