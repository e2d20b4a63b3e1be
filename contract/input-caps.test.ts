import { describe, expect, it } from "vitest";
import { jsonDepthOver, jsonPathText } from "./input-caps";

describe("jsonDepthOver", () => {
  it("counts objects and arrays, not scalars, and answers null within the bound", () => {
    expect(jsonDepthOver("text", 0)).toBeNull();
    expect(jsonDepthOver({}, 1)).toBeNull();
    expect(jsonDepthOver({ a: [1, { b: "x" }] }, 3)).toBeNull();
    expect(jsonDepthOver({ a: [1, { b: "x" }] }, 2)).toEqual(["a", 1]);
  });

  it("names the path to the first container past the bound", () => {
    const body = { url: "u", variants: [{ key: "A" }, { key: "B", seo: { jsonLd: [[[{}]]] } }] };
    const path = jsonDepthOver(body, 6)!;
    expect(path).toEqual(["variants", 1, "seo", "jsonLd", 0, 0]);
    expect(jsonPathText(path)).toBe("variants[1].seo.jsonLd[0][0]");
  });

  it("walks a value nested 100,000 levels deep without recursion", () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonDepthOver(deep, 20)).toHaveLength(20);
  });
});
