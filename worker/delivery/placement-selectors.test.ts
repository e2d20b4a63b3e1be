import { describe, expect, it } from "vitest";
import { placementSchema, SELECTOR_GRAMMAR, SELECTOR_UNSUPPORTED } from "#contract/placement";

/** Selectors the grammar takes: each must mean the same to HTMLRewriter (below) and to a browser. */
const ACCEPTED = [
  "main",
  "*",
  "#slot",
  ".hero",
  "div.hero.wide",
  "section#top > .banner",
  "main article p",
  "[data-slot]",
  '[data-slot="top"]',
  "[data-slot='top']",
  "a[href^=https]",
  'a[href$=".pdf"]',
  "div[class~=hero]",
  "div[lang|=en]",
  'img[alt*="sale"]',
  "li:first-child",
  "p:first-of-type",
  "li:nth-child(2)",
  "li:nth-child(2n+1)",
  "li:nth-child(odd)",
  "tr:nth-of-type(even)",
  "ul>li",
  "-custom-element",
];

const REFUSED = [
  "h1 + p",
  "h1 ~ p",
  "div:not(.x)",
  "a:hover",
  "p::before",
  "div, span",
  "#1abc",
  "div[",
  '[a="x]',
  "<script>",
  "div > ",
  "> div",
  "div }{ color: red",
];

describe("placement selectors", () => {
  it.each(ACCEPTED)("takes %s, and HTMLRewriter and the DOM's grammar take it too", async (selector) => {
    expect(SELECTOR_GRAMMAR.test(selector)).toBe(true);
    // HTMLRewriter throws on a selector it does not support when the handler is added.
    const rewriter = new HTMLRewriter().on(selector, { element() {} });
    expect(await rewriter.transform(new Response("<main><p>x</p></main>")).text()).toBe("<main><p>x</p></main>");
  });

  it.each(REFUSED)("refuses %s with a message naming what is supported", (selector) => {
    const parsed = placementSchema.safeParse({ position: "inside", selector });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.message)).toEqual([SELECTOR_UNSUPPORTED]);
  });

  it("trims the selector, keeps body-start selector-free, and caps the selector at 200 characters", () => {
    expect(placementSchema.parse({ position: "before", selector: "  #slot " })).toEqual({
      position: "before",
      selector: "#slot",
    });
    expect(placementSchema.parse({ position: "body-start", selector: "" })).toEqual({ position: "body-start" });
    const long = placementSchema.safeParse({ position: "after", selector: `#${"a".repeat(200)}` });
    expect(long.error!.issues[0]!.message).toMatch(/200/);
    expect(placementSchema.safeParse({ position: "top" }).error!.issues[0]!.message).toBe(
      'Position must be "body-start", "before", "after", "inside" or "replace"',
    );
  });
});
