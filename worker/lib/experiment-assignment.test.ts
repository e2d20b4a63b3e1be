import { describe, expect, it } from "vitest";
import { assignVariant, bucketOf } from "./experiment-assignment";

const VISITORS = 100_000;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Mulberry32: a seeded generator, so that a failure can be replayed. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Visitor ids as the snippet makes them: 22 URL-safe characters. */
function visitorIds(count: number, seed = 28): string[] {
  const random = seeded(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 22 }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(""),
  );
}

function shares(ids: readonly string[], experimentId: string, weights: readonly number[]): number[] {
  const counts = weights.map(() => 0);
  for (const id of ids) counts[assignVariant(id, experimentId, weights)]!++;
  return counts.map((count) => (count / ids.length) * 100);
}

describe("assignVariant", () => {
  const ids = visitorIds(VISITORS);

  it.each([[[50, 50]], [[34, 33, 33]], [[10, 90]], [[20, 20, 20, 20, 20]], [[1, 99]]])(
    "splits 100,000 visitors within 2 points of the weights %j",
    (weights) => {
      shares(ids, "experiment-1", weights).forEach((share, i) => expect(Math.abs(share - weights[i]!)).toBeLessThan(2));
    },
  );

  it("splits sequential visitor ids and sequential experiment ids as evenly", () => {
    const sequential = Array.from({ length: VISITORS }, (_, i) => `visitor-${String(i).padStart(8, "0")}`);
    for (const experimentId of ["1", "2", "3"]) {
      shares(sequential, experimentId, [34, 33, 33]).forEach((share, i) =>
        expect(Math.abs(share - [34, 33, 33][i]!)).toBeLessThan(2),
      );
    }
  });

  it("gives a visitor the same variant on every call", () => {
    for (const id of ids.slice(0, 1_000)) {
      const first = assignVariant(id, "experiment-1", [20, 20, 20, 20, 20]);
      for (let call = 0; call < 3; call++) expect(assignVariant(id, "experiment-1", [20, 20, 20, 20, 20])).toBe(first);
    }
  });

  it("keeps the buckets it had when this was written, so running experiments never reshuffle their visitors", () => {
    // Computed separately in Python: fmix32(fnv1a(f"{experiment}:{visitor}".encode("utf-8"))) % 10000.
    expect(bucketOf("visitor-0001", "42")).toBe(9568);
    expect(bucketOf("AbCdEfGh12345678", "42")).toBe(8851);
    expect(bucketOf("AbCdEfGh12345678", "7")).toBe(214);
    expect(bucketOf("visitor-0001", "exp-é")).toBe(9814);
    expect(assignVariant("visitor-0001", "42", [50, 50])).toBe(1);
    expect(assignVariant("AbCdEfGh12345678", "7", [10, 90])).toBe(0);
  });

  it("assigns independently in different experiments", () => {
    for (const [x, y] of [
      ["experiment-x", "experiment-y"],
      ["41", "42"],
    ]) {
      const both = ids.filter((id) => assignVariant(id, x!, [50, 50]) === 0 && assignVariant(id, y!, [50, 50]) === 0);
      expect(Math.abs((both.length / VISITORS) * 100 - 25)).toBeLessThan(1);
    }
  });

  it("answers a bucket in [0, 10000) and a variant index within the weights", () => {
    for (const id of ids.slice(0, 10_000)) {
      const bucket = bucketOf(id, "experiment-1");
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(10_000);
      expect(Number.isInteger(bucket)).toBe(true);
    }
    expect(assignVariant("visitor-0001", "42", [100])).toBe(0);
  });
});
