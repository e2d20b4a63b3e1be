import { describe, expect, it } from "vitest";
import { pickSelector } from "#contract/pick-selector";
import { SELECTOR_GRAMMAR } from "#contract/placement";

/** The selector picked for the element `target` names in `html`. */
function picked(html: string, target: string): string | null {
  document.body.innerHTML = html;
  const element = document.querySelector(target);
  if (!element) throw new Error(`No ${target} in the table's page`);
  return pickSelector(element);
}

describe("pickSelector", () => {
  it.each([
    ["an id first", `<section id="hero" data-block="top" class="banner">x</section>`, "section", "#hero"],
    [
      "a data attribute when there is no id",
      `<div data-block="promo" class="box">x</div><div class="box">y</div>`,
      "[data-block]",
      '[data-block="promo"]',
    ],
    ["a unique stable class", `<p class="lead">a</p><p>b</p>`, "p", ".lead"],
    ["not a generated class", `<p class="css-1x2y3z lead">a</p><p class="css-9q8w7e">b</p>`, ".lead", ".lead"],
    [
      "the class under the nearest ancestor with an id when the class repeats",
      `<div id="main"><p class="note">a</p></div><div><p class="note">b</p></div>`,
      "#main .note",
      "#main .note",
    ],
    [
      "a short child path instead of a long nth-child chain",
      `<main><ul><li>a</li><li>b</li><li>c</li></ul></main>`,
      "li:nth-of-type(2)",
      "body > main > ul > li:nth-of-type(2)",
    ],
    [
      "no :nth-of-type on a step that is unique among its siblings",
      `<div id="shop"><div><span>a</span></div><div><span>b</span></div></div>`,
      "#shop > div:nth-of-type(2) > span",
      "#shop > div:nth-of-type(2) > span",
    ],
    ["skips an id outside the grammar", `<div id="1st:item" class="card">a</div><div>b</div>`, ".card", ".card"],
  ])("picks %s", (_, html, target, expected) => {
    const selector = picked(html, target);
    expect(selector).toBe(expected);
    expect(selector).toMatch(SELECTOR_GRAMMAR);
    expect(document.querySelectorAll(selector!)).toHaveLength(1);
  });

  it("gives none rather than a selector past 200 characters", () => {
    const deep = "<div>".repeat(60) + `<b>x</b><b>y</b>` + "</div>".repeat(60);
    expect(picked(deep, "b:nth-of-type(2)")).toBeNull();
  });

  it("runs alone from its source, as the picker script injects it", () => {
    document.body.innerHTML = `<section id="hero">x</section>`;
    const fromSource = new Function(`return (${pickSelector.toString()})`)() as typeof pickSelector;
    expect(fromSource(document.querySelector("section")!)).toBe("#hero");
  });
});
