import { describe, expect, it } from "vitest";
import type { Mapping } from "../../../../worker/contract/responses";
import { groupMappings } from "./group-mappings";

function mapping(overrides: Partial<Mapping> & Pick<Mapping, "id" | "url" | "createdAt">): Mapping {
  return {
    userId: "u1",
    htmlContent: `<p>${overrides.id}</p>`,
    publishedAt: null,
    totalRequests: 0,
    contentDeliveryCount: 0,
    ...overrides,
  };
}

describe("groupMappings", () => {
  it("shows the newest mapping of URLs that are equal after normalisation, with counts summed", () => {
    const rows = groupMappings([
      mapping({
        id: 1,
        url: "https://www.Example.com/page/",
        createdAt: "2025-01-01T00:00:00Z",
        totalRequests: 3,
        contentDeliveryCount: 1,
      }),
      mapping({
        id: 2,
        url: "http://example.com/page",
        createdAt: "2025-03-01T00:00:00Z",
        totalRequests: 5,
        contentDeliveryCount: 2,
      }),
      mapping({
        id: 3,
        url: "example.com/PAGE//",
        createdAt: "2025-02-01T00:00:00Z",
        totalRequests: 7,
        contentDeliveryCount: 4,
      }),
    ]);

    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: 2,
      url: "http://example.com/page",
      htmlContent: "<p>2</p>",
      totalRequests: 15,
      contentDeliveryCount: 7,
    });
  });

  it("keeps different URLs apart and lists the newest group first", () => {
    const rows = groupMappings([
      mapping({ id: 1, url: "https://a.example/x", createdAt: "2025-01-01T00:00:00Z", totalRequests: 1 }),
      mapping({ id: 2, url: "https://a.example/y", createdAt: "2025-05-01T00:00:00Z", totalRequests: 2 }),
      mapping({ id: 3, url: "https://b.example/x", createdAt: "2025-03-01T00:00:00Z", totalRequests: 4 }),
    ]);

    expect(rows.map((r) => [r.id, r.totalRequests])).toEqual([
      [2, 2],
      [3, 4],
      [1, 1],
    ]);
  });

  it("does not change the mappings it was given", () => {
    const input = [
      mapping({ id: 1, url: "https://a.example", createdAt: "2025-01-01T00:00:00Z", totalRequests: 1 }),
      mapping({ id: 2, url: "https://a.example/", createdAt: "2025-02-01T00:00:00Z", totalRequests: 2 }),
    ];
    groupMappings(input);
    expect(input.map((m) => m.totalRequests)).toEqual([1, 2]);
  });

  it("answers an empty list for no mappings", () => {
    expect(groupMappings([])).toEqual([]);
  });
});
