import { describe, expect, it } from "vitest";
import { normalizeUrl } from "./normalize-url";
import { prefixCandidates, withoutTrackingParameters } from "./url-rules";

describe("normalizeUrl (SPEC.md §2)", () => {
  it.each([
    ["https://www.Example.com/Pricing/", "example.com/pricing"],
    ["http://example.com/pricing", "example.com/pricing"],
    ["HTTPS://WWW.EXAMPLE.COM", "example.com"],
    ["example.com/a///", "example.com/a"],
    ["https://example.com/a#section", "example.com/a"],
    ["https://example.com/a?x=1", "example.com/a?x=1"],
    ["https://shop.example.com/", "shop.example.com"],
    ["https://wwwx.example.com/", "wwwx.example.com"],
  ])("%s -> %s", (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });
});

describe("the URL rules", () => {
  it.each([
    ["https://shop.example/offer?utm_source=newsletter", "shop.example/offer"],
    ["https://shop.example/offer/?UTM_Campaign=x&gclid=abc#top", "shop.example/offer"],
    ["https://shop.example/offer?page=2&fbclid=1&msclkid=2", "shop.example/offer?page=2"],
    ["https://shop.example/offer?utm_medium=a&page=2&utm%5Fterm=b", "shop.example/offer?page=2"],
    ["https://shop.example/offer?utmost=1&gclid2=1", "shop.example/offer?utmost=1&gclid2=1"],
    ["https://shop.example/offer?", "shop.example/offer"],
  ])("ignores tracking parameters: %s -> %s", (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it("leaves a URL without tracking parameters exactly as written", () => {
    const url = "https://Shop.example/a?B=%20c&d&&e=1#h?utm_source=x";
    expect(withoutTrackingParameters("https://Shop.example/a?B=%20c&d&e=1")).toBe(
      "https://Shop.example/a?B=%20c&d&e=1",
    );
    expect(withoutTrackingParameters(url)).toBe("https://Shop.example/a?B=%20c&d&e=1#h?utm_source=x");
  });

  it("lists a URL's prefixes longest first, at the depths asked for", () => {
    expect(prefixCandidates("shop.example/blog/a?x=1")).toEqual([
      "shop.example/blog/a/*",
      "shop.example/blog/*",
      "shop.example/*",
    ]);
    expect(prefixCandidates("shop.example/blog/a", [1, 2])).toEqual(["shop.example/blog/*", "shop.example/*"]);
    expect(prefixCandidates("shop.example", [1, 3])).toEqual(["shop.example/*"]);
    // A deep URL probes at most 20 levels.
    expect(prefixCandidates(`shop.example${"/x".repeat(40)}`)).toHaveLength(20);
  });
});
