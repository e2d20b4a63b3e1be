import { describe, expect, it } from "vitest";
import { normalizeUrl } from "../../../worker/contract/normalize-url";
import type { Mapping } from "../../../worker/contract/responses";
import { groupMappingsByUrl, urlWithoutScheme } from "./group-mappings";

const m = (id: number, url: string, createdAt: string, totalRequests = 0, contentDeliveryCount = 0): Mapping => ({
  id,
  userId: "u1",
  url,
  htmlContent: "",
  createdAt,
  publishedAt: null,
  totalRequests,
  contentDeliveryCount,
});

describe("groupMappingsByUrl", () => {
  const mappings = [
    m(1, "https://Example.com/Page", "2025-01-01T00:00:00Z", 1, 10),
    m(2, "http://example.com/page", "2025-03-01T00:00:00Z", 2, 20),
    m(3, "https://www.example.com/page/", "2025-02-01T00:00:00Z", 4, 40),
  ];

  it("ignoring only scheme and case, keeps www. and trailing slashes apart", () => {
    const groups = groupMappingsByUrl(mappings, urlWithoutScheme);
    expect(groups.map((g) => [g.key, g.mappings.map((x) => x.id), g.totalRequests, g.contentDeliveryCount])).toEqual([
      ["example.com/page", [2, 1], 3, 30],
      ["www.example.com/page/", [3], 4, 40],
    ]);
  });

  it("with normalizeUrl, puts all three together, newest first", () => {
    const groups = groupMappingsByUrl(mappings, normalizeUrl);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.mappings.map((x) => x.id)).toEqual([2, 3, 1]);
    expect(groups[0]!.totalRequests).toBe(7);
  });
});
