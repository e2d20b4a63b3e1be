import { describe, expect, it } from "vitest";
import { encodeSegment, segmentName, UNKNOWN_COUNTRY } from "./segments";

describe('a view\'s segment code (docs/experiments.md, "Results by segment")', () => {
  it("holds device, referrer type and country in four characters, and names each back", () => {
    const code = encodeSegment({ device: "tablet", referrer: "ai", country: "DE" });
    expect(code).toBe("taDE");
    expect(segmentName("device", code.slice(0, 1))).toBe("tablet");
    expect(segmentName("referrer", code.slice(1, 2))).toBe("ai");
    expect(segmentName("country", code.slice(2))).toBe("DE");
  });

  it("keeps the set of values closed: a country that is not two letters, or none, is unknown", () => {
    for (const country of [undefined, "ZZZ", "D1", "de"]) {
      const code = encodeSegment({ device: "desktop", referrer: "direct", country });
      expect(code).toHaveLength(4);
      expect(segmentName("country", code.slice(2))).toBe(UNKNOWN_COUNTRY);
    }
    expect(segmentName("device", "?")).toBe("other");
  });
});
