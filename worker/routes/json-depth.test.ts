/**
 * Issue 38, point 1 (P-1): JSON-LD nested deeper than 20 levels, in a mapping's SEO or a variant's, by any route that
 * stores it, is refused with 400 and its message, and nothing is stored.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ImportReport } from "#contract/bulk";
import type { Mapping } from "#contract/responses";
import { JSON_LD_TOO_DEEP } from "#contract/seo";
import { urlMappings } from "../db/schema";
import { call, createVerifiedCustomer, db } from "../test/helpers";

/** What the review stored: "[" × 1,100 + "{}" + "]" × 1,100 (2.2 KB). */
const POISON = "[".repeat(1_100) + "{}" + "]".repeat(1_100);
const PAGE = "https://shop.test/offer";

const experiment = (variantSeo: object) => ({
  variants: [
    { key: "A", weight: 50 },
    { key: "B", weight: 50, htmlContent: "<p>B</p>", seo: variantSeo },
  ],
  goals: ["signup"],
});

async function customer() {
  return createVerifiedCustomer(`j${crypto.randomUUID()}@example.com`);
}

const mappingsOf = (userId: string) => db().select().from(urlMappings).where(eq(urlMappings.userId, userId));

async function expectTooDeep(res: Response) {
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: JSON_LD_TOO_DEEP });
}

describe("JSON-LD nested deeper than 20 levels", () => {
  it.each([
    ["the mapping's SEO, as text", { seo: { jsonLd: POISON } }],
    ["the mapping's SEO, as JSON", { seo: { jsonLd: JSON.parse(POISON) } }],
    ["a variant's SEO", experiment({ jsonLd: JSON.parse(POISON) })],
  ])("POST /api/mappings with it in %s: 400, nothing stored", async (_, extra) => {
    const { user, apiKey } = await customer();
    await expectTooDeep(
      await call("/api/mappings", { method: "POST", apiKey, json: { url: PAGE, htmlContent: "<p>A</p>", ...extra } }),
    );
    expect(await mappingsOf(user.id)).toEqual([]);
  });

  it.each([
    ["the mapping's SEO", { seo: { jsonLd: POISON } }],
    ["a variant's SEO", experiment({ jsonLd: POISON })],
  ])("PATCH /api/mappings/{id} with it in %s: 400, the mapping unchanged", async (_, change) => {
    const { user, apiKey } = await customer();
    const created = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: PAGE, htmlContent: "<p>A</p>", seo: { jsonLd: { "@type": "Offer" } } },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as Mapping;
    const before = await mappingsOf(user.id);
    await expectTooDeep(await call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json: change }));
    expect(await mappingsOf(user.id)).toEqual(before);
  });

  it("a JSON import with such a row: 400 naming the row, nothing stored", async () => {
    const { user, apiKey } = await customer();
    const res = await call("/api/mappings/import", {
      method: "POST",
      apiKey,
      body: JSON.stringify([
        { url: "https://shop.test/ok", htmlContent: "<p>ok</p>" },
        { url: PAGE, htmlContent: "<p>A</p>", seo: { jsonLd: JSON.parse(POISON) } },
      ]),
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^Row 2 must be nested at most 32 levels deep; it goes deeper at seo\.jsonLd\[0\]/,
    );
    expect(await mappingsOf(user.id)).toEqual([]);
  });

  it("a CSV import whose JSON-LD cell holds it: the row refused with the message, nothing stored", async () => {
    const { user, apiKey } = await customer();
    const csv = `url,htmlContent,seoJsonLd\n${PAGE},<p>A</p>,${POISON}\n`;
    const res = await call("/api/mappings/import", {
      method: "POST",
      apiKey,
      body: csv,
      headers: { "Content-Type": "text/csv" },
    });
    expect(res.status).toBe(422);
    const report = (await res.json()) as ImportReport;
    expect(report.rows[0]!.errors).toEqual([`seo.jsonLd: ${JSON_LD_TOO_DEEP}`]);
    expect(await mappingsOf(user.id)).toEqual([]);
  });

  it("a goal's body nested deeper than 32 levels: 400 naming where, before its fields are read", async () => {
    const deep = "[".repeat(40) + "]".repeat(40);
    const res = await call("/api/goals", { method: "POST", body: `{"u":${deep},"vid":"v","goal":"buy"}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^The body must be nested at most 32 levels deep; it goes deeper at u(\[0\]){31}$/,
    );
  });
});
