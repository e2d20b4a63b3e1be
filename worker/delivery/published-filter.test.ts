import { describe, expect, it } from "vitest";
import { mayBePublished, publishedFilter, PUBLISHED_FILTER_MAX_URLS } from "./published-filter";

const urls = (n: number, prefix = "shop.test/p") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("the published URLs' filter", () => {
  it("says maybe of every URL it was made with, from one to the most", () => {
    for (const n of [1, 2, 100, PUBLISHED_FILTER_MAX_URLS]) {
      const made = urls(n);
      const filter = publishedFilter(made);
      expect(made.every((url) => mayBePublished(filter, url))).toBe(true);
    }
  });

  it("says no of about 99 in 100 other URLs, and of all when made with none", () => {
    const filter = publishedFilter(urls(PUBLISHED_FILTER_MAX_URLS));
    const passed = urls(100_000, "shop.test/other/").filter((url) => mayBePublished(filter, url)).length;
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(1_500);
    expect(urls(1_000).some((url) => mayBePublished(publishedFilter([]), url))).toBe(false);
  });

  it("stays under 28 KB at the most URLs, in base64's digits", () => {
    expect(publishedFilter(urls(PUBLISHED_FILTER_MAX_URLS)).length).toBeLessThan(28 * 1024);
    expect(publishedFilter(urls(PUBLISHED_FILTER_MAX_URLS))).toMatch(/^[A-Za-z0-9+/]+$/);
  });
});
