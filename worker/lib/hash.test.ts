import { describe, expect, it } from "vitest";
import { cyrb53Lanes, fmix32, fnv1a32 } from "./hash";

// Published test vectors: a hash that moved would move visitors, customers and counters (hash.ts).
describe("the hashes", () => {
  it("FNV-1a 32 over UTF-8 bytes", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });

  it("murmur3's fmix32", () => {
    expect(fmix32(0)).toBe(0);
    expect(fmix32(1)).toBe(0x514e28b7);
  });

  it("cyrb53's lanes give cyrb53's own value", () => {
    const [h1, h2] = cyrb53Lanes("a");
    expect((h2 & 0x1fffff) * 2 ** 32 + h1).toBe(7929297801672961);
  });
});
