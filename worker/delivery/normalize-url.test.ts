import { describe, expect, it } from "vitest";
import { normalizeUrl } from "../contract/normalize-url";

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
