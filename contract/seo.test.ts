import { describe, expect, it } from "vitest";
import { JSON_MAX_DEPTH } from "./input-caps";
import {
  CANONICAL_INVALID,
  JSON_LD_INVALID,
  JSON_LD_TOO_DEEP,
  JSON_LD_TOO_LARGE,
  ROBOTS_INVALID,
  seoSchema,
} from "./seo";

/** Arrays in arrays, `levels` deep counting the outermost, around an empty object. */
const nested = (levels: number) => "[".repeat(levels - 1) + "{}" + "]".repeat(levels - 1);

const problems = (input: unknown) => seoSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

describe("SEO fields", () => {
  it("takes every field, parses JSON-LD given as text, and drops empty fields", () => {
    expect(
      seoSchema.parse({
        title: "  Summer sale ",
        description: "Everything 20% off",
        canonical: "https://shop.example/sale",
        robots: "noindex, max-snippet:50, max-image-preview:large",
        jsonLd: '{"@context":"https://schema.org","@type":"Offer"}',
      }),
    ).toEqual({
      title: "Summer sale",
      description: "Everything 20% off",
      canonical: "https://shop.example/sale",
      robots: "noindex, max-snippet:50, max-image-preview:large",
      jsonLd: { "@context": "https://schema.org", "@type": "Offer" },
    });
    expect(seoSchema.parse({ title: "", description: " ", jsonLd: "" })).toEqual({});
    expect(seoSchema.parse({ jsonLd: [{ "@type": "Thing" }] })).toEqual({ jsonLd: [{ "@type": "Thing" }] });
  });

  it.each(["/sale", "sale.html", "javascript:alert(1)", "ftp://shop.example/", "https://"])(
    "refuses the canonical %s",
    (canonical) => expect(problems({ canonical })).toEqual([CANONICAL_INVALID]),
  );

  it.each(["noindex; nofollow", "index, everything", '"><script>', "max-image-preview:huge"])(
    "refuses the robots directive %s",
    (robots) => expect(problems({ robots })).toEqual([ROBOTS_INVALID]),
  );

  it.each(["{not json", "42", '"text"', "true", 42])("refuses JSON-LD %s that is not an object or array", (jsonLd) =>
    expect(problems({ jsonLd })).toEqual([JSON_LD_INVALID]),
  );

  it("caps JSON-LD at 32 KB as written, and the text fields at their lengths", () => {
    const big = { "@type": "Thing", name: "x".repeat(32 * 1024) };
    expect(problems({ jsonLd: big })).toEqual([JSON_LD_TOO_LARGE]);
    expect(problems({ title: "t".repeat(201) })[0]).toMatch(/200/);
    expect(problems({ description: "d".repeat(1_001) })[0]).toMatch(/1,?000/);
    expect(problems({ title: 5 })).toEqual(["Title must be text"]);
  });

  it("caps JSON-LD's nesting at 20 levels, as text or as JSON, far below what SQLite's JSON functions read", () => {
    expect(JSON_LD_TOO_DEEP).toBe("JSON-LD must be nested at most 20 levels deep");
    expect(seoSchema.parse({ jsonLd: nested(JSON_MAX_DEPTH) }).jsonLd).toEqual(JSON.parse(nested(JSON_MAX_DEPTH)));
    expect(problems({ jsonLd: nested(JSON_MAX_DEPTH + 1) })).toEqual([JSON_LD_TOO_DEEP]);
    expect(problems({ jsonLd: JSON.parse(nested(1_100)) })).toEqual([JSON_LD_TOO_DEEP]);
    // 32 KB of brackets: 16,000 levels, refused without overflowing a stack.
    expect(problems({ jsonLd: nested(16_000) })).toEqual([JSON_LD_TOO_DEEP]);
  });
});
