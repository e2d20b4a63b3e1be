import { describe, expect, it } from "vitest";
import { isCancelled, nextSort, parseRequestLimit, truncateText } from "./users-view";

describe("parseRequestLimit", () => {
  it("reads whole numbers of at least 0", () => {
    expect(parseRequestLimit("250")).toBe(250);
    expect(parseRequestLimit(" 0 ")).toBe(0);
    expect(parseRequestLimit("12.9")).toBe(12);
  });

  it("makes anything else null (unlimited)", () => {
    for (const text of ["", "   ", "abc", "12abc", "-5", "1e3", "∞"]) expect(parseRequestLimit(text)).toBeNull();
  });
});

describe("isCancelled and truncateText", () => {
  it("recognises Cancelled in any case", () => {
    expect(isCancelled("Cancelled")).toBe(true);
    expect(isCancelled("CANCELLED")).toBe(true);
    expect(isCancelled("Active")).toBe(false);
    expect(isCancelled(null)).toBe(false);
  });

  it("cuts long text with an ellipsis", () => {
    expect(truncateText("abc", 5)).toBe("abc");
    expect(truncateText("abcdefgh", 5)).toBe("abcde…");
  });
});

describe("nextSort", () => {
  it("sorts a new column ascending first, then flips", () => {
    expect(nextSort(null, "email")).toEqual({ field: "email", direction: "asc" });
    expect(nextSort({ field: "email", direction: "asc" }, "email")).toEqual({ field: "email", direction: "desc" });
    expect(nextSort({ field: "email", direction: "desc" }, "email")).toEqual({ field: "email", direction: "asc" });
    expect(nextSort({ field: "email", direction: "desc" }, "totalRequests")).toEqual({
      field: "totalRequests",
      direction: "asc",
    });
  });
});
