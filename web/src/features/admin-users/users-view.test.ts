import { describe, expect, it } from "vitest";
import type { AdminUser } from "../../../../worker/contract/responses";
import { isCancelled, nextSort, parseRequestLimit, searchUsers, sortUsers, truncateText } from "./users-view";

const u = (email: string, totalRequests: number, requestLimit: number | null) =>
  ({ userId: email, email, totalRequests, requestLimit }) as AdminUser;

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

describe("searchUsers and sortUsers", () => {
  const users = [u("b@x.com", 5, null), u("A@y.org", 50, 10), u("c@x.com", 1, 0)];

  it("searches emails ignoring case", () => {
    expect(searchUsers(users, "X.COM").map((x) => x.email)).toEqual(["b@x.com", "c@x.com"]);
    expect(searchUsers(users, "  ")).toHaveLength(3);
  });

  it("sorts by email (ignoring case), requests and limit with no limit as the largest", () => {
    const emails = (list: AdminUser[]) => list.map((x) => x.email);
    expect(emails(sortUsers(users, { field: "email", direction: "asc" }))).toEqual(["A@y.org", "b@x.com", "c@x.com"]);
    expect(emails(sortUsers(users, { field: "totalRequests", direction: "desc" }))).toEqual([
      "A@y.org",
      "b@x.com",
      "c@x.com",
    ]);
    expect(emails(sortUsers(users, { field: "requestLimit", direction: "asc" }))).toEqual([
      "c@x.com",
      "A@y.org",
      "b@x.com",
    ]);
    expect(emails(sortUsers(users, null))).toEqual(["b@x.com", "A@y.org", "c@x.com"]);
  });

  it("a header click sorts ascending first, then flips", () => {
    expect(nextSort(null, "email")).toEqual({ field: "email", direction: "asc" });
    expect(nextSort({ field: "email", direction: "asc" }, "email")).toEqual({ field: "email", direction: "desc" });
    expect(nextSort({ field: "email", direction: "desc" }, "email")).toEqual({ field: "email", direction: "asc" });
    expect(nextSort({ field: "email", direction: "desc" }, "totalRequests")).toEqual({
      field: "totalRequests",
      direction: "asc",
    });
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
