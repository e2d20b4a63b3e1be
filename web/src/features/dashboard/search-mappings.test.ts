import { describe, expect, it } from "vitest";
import type { Mapping } from "../../../../worker/contract/responses";
import { searchMappings } from "./search-mappings";

const base = {
  userId: "u",
  createdAt: "2025-01-01T00:00:00Z",
  publishedAt: null,
  totalRequests: 0,
  contentDeliveryCount: 0,
};
const mappings: Mapping[] = [
  { ...base, id: 1, url: "https://Shop.example/Sale", htmlContent: "<b>Hello</b>" },
  { ...base, id: 2, url: "https://blog.example", htmlContent: "<div>Summer SALE banner</div>" },
  { ...base, id: 3, url: "https://docs.example", htmlContent: "<p>docs</p>" },
];

describe("searchMappings", () => {
  it("matches the URL or the HTML content, ignoring case", () => {
    expect(searchMappings(mappings, "sale").map((m) => m.id)).toEqual([1, 2]);
    expect(searchMappings(mappings, "HELLO").map((m) => m.id)).toEqual([1]);
  });

  it("returns everything for a blank term", () => {
    expect(searchMappings(mappings, "  ")).toHaveLength(3);
  });
});
