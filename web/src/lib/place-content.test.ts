/**
 * The pick-on-page frame's placement (contract/place-content.ts), the snippet's `inject` in a module of its own: each
 * position, a selector that names nothing, and the last content taken away (a replaced element put back) before
 * the next is placed.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { placeContent } from "#contract/place-content";
import { PLACEMENT_DOM_POSITIONS } from "#contract/placement";

const PAGE = '<header>Top</header><main><section id="hero"><p>Offer</p></section></main>';
const CONTENT = "<b>Sale</b>";
const BOX = `<div data-dynamic-content="">${CONTENT}</div>`;

beforeEach(() => {
  document.body.innerHTML = PAGE;
});

describe("placeContent", () => {
  it.each([
    ["before", `<main>${BOX}<section id="hero"><p>Offer</p></section></main>`],
    ["after", `<main><section id="hero"><p>Offer</p></section>${BOX}</main>`],
    ["inside", `<main><section id="hero">${BOX}<p>Offer</p></section></main>`],
    ["replace", `<main>${BOX}</main>`],
  ] as const)("places the content %s the element", (position, main) => {
    expect(placeContent(document, { h: CONTENT, p: PLACEMENT_DOM_POSITIONS[position], s: "#hero" })).toBe(true);
    expect(document.querySelector("main")!.outerHTML).toBe(main);
  });

  it("places the content first in <body> without a selector", () => {
    placeContent(document, { h: CONTENT });
    expect(document.body.innerHTML).toBe(BOX + PAGE);
  });

  it("places nothing when the selector names no element", () => {
    expect(placeContent(document, { h: CONTENT, p: "afterbegin", s: "#nowhere" })).toBe(false);
    expect(document.body.innerHTML).toBe(PAGE);
  });

  it("takes the last content away first, putting back the element it replaced", () => {
    placeContent(document, { h: CONTENT, p: "replace", s: "#hero" });
    placeContent(document, { h: CONTENT, p: "afterend", s: "header" });
    expect(document.body.innerHTML).toBe(
      `<header>Top</header>${BOX}<main><section id="hero"><p>Offer</p></section></main>`,
    );
    placeContent(document, { h: "" });
    expect(document.body.innerHTML).toBe(PAGE);
  });

  it("runs from its source alone, as the frame's picker script injects it", () => {
    const injected = new Function(`return ${placeContent.toString()}`)() as typeof placeContent;
    injected(document, { h: CONTENT, p: "beforebegin", s: "main" });
    expect(document.body.innerHTML).toBe(
      `<header>Top</header>${BOX}<main><section id="hero"><p>Offer</p></section></main>`,
    );
  });
});
