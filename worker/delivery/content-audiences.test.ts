import { describe, expect, it } from "vitest";
import { AUDIENCE_HEADER, datedVisitorId, NEW_VISITOR_MS } from "#contract/audiences";
import type { Mapping } from "#contract/responses";
import { storedEntry } from "../test/delivery-store";
import { call, createCustomerOnPlan } from "../test/helpers";
import { countingKv } from "../test/delivery-store";
import { audienceAttributes } from "./audience-attributes";
import { lookupContent } from "./content-route";
import type { DeliveredAudiences } from "./store";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const ANDROID_PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36";
const GOOGLEBOT_SMARTPHONE =
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36";
const PAGE = "https://shop.test/offer";

/** A customer whose page has the mappings given, in this order. */
async function customerWith(mappings: Record<string, unknown>[]) {
  const customer = await createCustomerOnPlan({ eventsLimit: null, websitesLimit: null });
  const ids: number[] = [];
  for (const m of mappings) {
    const res = await call("/api/mappings", { method: "POST", apiKey: customer.apiKey, json: { url: PAGE, ...m } });
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as Mapping).id);
  }
  return { ...customer, ids };
}

/** The snippet's JSON answer for a visitor with these headers and query parameters. */
async function asked(userId: string, headers: Record<string, string>, extra = "", format = "json") {
  return call(
    `/api/content?u=${userId}&url=${encodeURIComponent(PAGE + extra)}&format=${format}&${new URLSearchParams(headers.query ?? "")}`,
    { headers: Object.fromEntries(Object.entries(headers).filter(([k]) => k !== "query")) },
  );
}

const answerOf = async (res: Response) =>
  res.status === 204 ? null : ((await res.json()) as { h: string; audience?: string });

describe("GET /api/content with audiences (docs/audiences.md)", () => {
  it("serves the first audience by priority that the visitor belongs to, else the fallback, naming the audience", async () => {
    const { user } = await customerWith([
      { htmlContent: "<p>all</p>" },
      { htmlContent: "<p>de</p>", audience: { name: "Germany", country: ["DE"] }, priority: 2 },
      { htmlContent: "<p>mobile</p>", audience: { name: "Mobile", device: ["mobile"] }, priority: 1 },
    ]);
    const entry = await storedEntry<DeliveredAudiences>(user.id, "shop.test/offer");
    expect(entry?.ordered.map((m) => m.audience?.name ?? null)).toEqual(["Mobile", "Germany", null]);

    expect(await answerOf(await asked(user.id, { "CF-IPCountry": "DE", "User-Agent": IPHONE }))).toEqual({
      h: "<p>mobile</p>",
      audience: "Mobile",
    });
    expect(await answerOf(await asked(user.id, { "CF-IPCountry": "DE", "User-Agent": DESKTOP }))).toEqual({
      h: "<p>de</p>",
      audience: "Germany",
    });
    expect(await answerOf(await asked(user.id, { "CF-IPCountry": "FR", "User-Agent": DESKTOP }))).toEqual({
      h: "<p>all</p>",
    });
  });

  it("tries audience mappings of equal priority oldest first", async () => {
    const { user } = await customerWith([
      { htmlContent: "<p>older</p>", audience: { name: "Older", country: ["DE"] }, priority: 5 },
      { htmlContent: "<p>newer</p>", audience: { name: "Newer", country: ["DE"] }, priority: 5 },
    ]);
    expect(await answerOf(await asked(user.id, { "CF-IPCountry": "DE" }))).toEqual({
      h: "<p>older</p>",
      audience: "Older",
    });
  });

  it("names the audience in X-Audience in the text form, exposed to scripts", async () => {
    const { user } = await customerWith([{ htmlContent: "<p>de</p>", audience: { name: "Germany", country: ["DE"] } }]);
    const res = await asked(user.id, { "CF-IPCountry": "DE" }, "", "text");
    expect(await res.text()).toBe("<p>de</p>");
    expect(res.headers.get(AUDIENCE_HEADER)).toBe("Germany");
    expect(res.headers.get("Access-Control-Expose-Headers")).toBe(AUDIENCE_HEADER);
  });

  it("answers 204 to a visitor of no audience where the URL has no fallback", async () => {
    const { user } = await customerWith([{ htmlContent: "<p>de</p>", audience: { name: "Germany", country: ["DE"] } }]);
    expect((await asked(user.id, { "CF-IPCountry": "US" })).status).toBe(204);
  });

  it("reads the referrer the snippet sends as r, the page URL's UTM parameters, and the visitor's language", async () => {
    const { user } = await customerWith([
      { htmlContent: "<p>all</p>" },
      { htmlContent: "<p>ai</p>", audience: { name: "From AI", referrer: ["ai"] } },
      { htmlContent: "<p>nl</p>", audience: { name: "Newsletter", utm: { source: ["newsletter"] } } },
      { htmlContent: "<p>fr</p>", audience: { name: "French", language: ["fr"] } },
    ]);
    const ai = await asked(user.id, { query: "r=https://chatgpt.com/c/1" });
    expect(await answerOf(ai)).toEqual({ h: "<p>ai</p>", audience: "From AI" });
    const nl = await asked(user.id, {}, "?utm_source=Newsletter");
    expect(await answerOf(nl)).toEqual({ h: "<p>nl</p>", audience: "Newsletter" });
    const fr = await asked(user.id, { "Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5" });
    expect(await answerOf(fr)).toEqual({ h: "<p>fr</p>", audience: "French" });
  });

  it("takes a visitor as new while the snippet's id is under 30 minutes old, or without an id", async () => {
    const { user } = await customerWith([
      { htmlContent: "<p>all</p>" },
      { htmlContent: "<p>welcome</p>", audience: { name: "New", visitor: "new" } },
    ]);
    const withId = async (vid?: string) =>
      answerOf(await asked(user.id, vid === undefined ? {} : { query: `vid=${vid}` }));
    const now = Date.now();
    expect(await withId()).toEqual({ h: "<p>welcome</p>", audience: "New" });
    expect(await withId(datedVisitorId(now - 60_000, "12345678"))).toEqual({ h: "<p>welcome</p>", audience: "New" });
    expect(await withId(datedVisitorId(now - NEW_VISITOR_MS - 60_000, "12345678"))).toEqual({ h: "<p>all</p>" });
    // An id made before ids carried their time.
    expect(await withId("1234567890123456")).toEqual({ h: "<p>all</p>" });
  });

  it("gives a crawler what a visitor with the same attributes gets", async () => {
    const { user } = await customerWith([
      { htmlContent: "<p>all</p>" },
      { htmlContent: "<p>mobile de</p>", audience: { name: "Mobile DE", country: ["DE"], device: ["mobile"] } },
    ]);
    const visitor = await answerOf(await asked(user.id, { "CF-IPCountry": "DE", "User-Agent": ANDROID_PHONE }));
    const crawler = await answerOf(await asked(user.id, { "CF-IPCountry": "DE", "User-Agent": GOOGLEBOT_SMARTPHONE }));
    expect(crawler).toEqual(visitor);
    expect(crawler).toEqual({ h: "<p>mobile de</p>", audience: "Mobile DE" });
  });

  it("delivers from the entry again when an audience mapping is unpublished or becomes the fallback", async () => {
    const { user, apiKey, ids } = await customerWith([
      { htmlContent: "<p>all</p>" },
      { htmlContent: "<p>de</p>", audience: { name: "Germany", country: ["DE"] } },
    ]);
    await call(`/api/mappings/${ids[1]}/status`, { method: "PATCH", apiKey, json: { status: "unpublished" } });
    expect(await storedEntry(user.id, "shop.test/offer")).toEqual({ mappingId: ids[0], html: "<p>all</p>" });
    expect(await answerOf(await asked(user.id, { "CF-IPCountry": "DE" }))).toEqual({ h: "<p>all</p>" });
  });

  it("runs an experiment inside an audience: the audience picks the mapping, the visitor's id the variant", async () => {
    const { user } = await customerWith([
      { htmlContent: "<p>all</p>" },
      {
        htmlContent: "<p>A</p>",
        audience: { name: "Germany", country: ["DE"] },
        variants: [
          { key: "A", weight: 50 },
          { key: "B", weight: 50, htmlContent: "<p>B</p>" },
        ],
        goals: ["signup"],
      },
    ]);
    const answers = await Promise.all(
      ["visitor-0001", "visitor-0002", "visitor-0003", "visitor-0004", "visitor-0005", "visitor-0006"].map(
        async (vid) =>
          (await (await asked(user.id, { "CF-IPCountry": "DE", query: `vid=${vid}` })).json()) as {
            h: string;
            variant: string;
            audience: string;
          },
      ),
    );
    for (const a of answers) {
      expect(a.audience).toBe("Germany");
      expect(a.h).toBe(a.variant === "A" ? "<p>A</p>" : "<p>B</p>");
    }
    expect(await answerOf(await asked(user.id, { "CF-IPCountry": "FR", query: "vid=visitor-0001" }))).toEqual({
      h: "<p>all</p>",
    });
  });

  it("chooses among 20 audiences from the URL's one entry: the same two KV reads as a URL without, and no D1", async () => {
    const { user } = await customerWith([
      { htmlContent: "<p>all</p>" },
      ...Array.from({ length: 20 }, (_, i) => ({
        htmlContent: `<p>${i}</p>`,
        // utm_content, like every tracking parameter, is no part of the URL the mappings match.
        audience: { name: `A${i}`, query: { utm_content: [String(i)] } },
        priority: i,
      })),
    ]);
    const { calls, env: counting } = countingKv();
    const noD1 = new Proxy({} as D1Database, {
      get: () => {
        throw new Error("D1 was asked");
      },
    });
    // Later than the memo of this isolate lives, so that the reads go to KV.
    const later = Date.now() + 60_000;
    const request = new Request("https://dc.test/api/content");
    const page = `${PAGE}?utm_content=19`;
    const lookup = await lookupContent({ ...counting, DB: noD1 }, user.id, page, later, "v", () =>
      audienceAttributes(request, page, undefined, "new"),
    );
    expect(lookup).toMatchObject({ match: { html: "<p>19</p>" }, audience: "A19" });
    expect(calls.reads).toBe(2);
  });
});
