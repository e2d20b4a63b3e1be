/**
 * The URL tester for a chosen visitor (`GET /api/mappings/match` with attributes, docs/audiences.md): the mapping
 * delivery would pick (`chooseMapping`), its audience, and why; defaults and refusals.
 */
import { describe, expect, it } from "vitest";
import type { Mapping, MappingMatch } from "#contract/responses";
import { call, createCustomerOnPlan } from "../test/helpers";

async function customerWith(mappings: Record<string, unknown>[]) {
  const customer = await createCustomerOnPlan({ eventsLimit: null, websitesLimit: null });
  const ids: number[] = [];
  for (const m of mappings) {
    const res = await call("/api/mappings", { method: "POST", apiKey: customer.apiKey, json: m });
    expect(res.status, await res.clone().text()).toBe(201);
    ids.push(((await res.json()) as Mapping).id);
  }
  return { ...customer, ids };
}

const tested = (apiKey: string, url: string, visitor: Record<string, string> = {}) =>
  call(`/api/mappings/match?${new URLSearchParams({ url, ...visitor })}`, { apiKey });

const answer = async (apiKey: string, url: string, visitor: Record<string, string> = {}) => {
  const res = await tested(apiKey, url, visitor);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as MappingMatch;
};

const PAGE = "https://shop.test/offer";

describe("GET /api/mappings/match for a visitor", () => {
  it("answers the mapping delivery would pick for the attributes given, naming its audience, else the fallback", async () => {
    const { apiKey, ids } = await customerWith([
      { url: PAGE, htmlContent: "<p>all</p>" },
      { url: PAGE, htmlContent: "<p>de</p>", audience: { name: "Germany", country: ["DE"] }, priority: 2 },
      { url: PAGE, htmlContent: "<p>phone</p>", audience: { name: "Phones", device: ["mobile"] }, priority: 1 },
      {
        url: PAGE,
        htmlContent: "<p>ai</p>",
        audience: { name: "AI, German speakers", referrer: ["ai"], language: ["de"], visitor: "returning" },
        priority: 3,
      },
      { url: PAGE, htmlContent: "<p>spring</p>", audience: { name: "Spring", utm: { campaign: ["spring"] } } },
    ]);
    const [fallback, germany, phones, ai, spring] = ids;

    const german = await answer(apiKey, PAGE, { country: "de", device: "mobile" });
    // Both match: the lower priority wins.
    expect(german.mapping).toMatchObject({ id: phones, audience: { name: "Phones" }, priority: 1 });
    expect(german.reason).toBe(
      "Exact match: shop.test/offer is this mapping's URL; this mapping's audience \"Phones\" (priority 1) is the first there this visitor belongs to.",
    );
    expect((await answer(apiKey, PAGE, { country: "DE" })).mapping?.id).toBe(germany);
    expect((await answer(apiKey, PAGE, { referrer: "ai", language: "de-AT", visitor: "returning" })).mapping?.id).toBe(
      ai,
    );
    // UTM and query parameters come from the URL tested.
    const campaign = await answer(apiKey, `${PAGE}?utm_campaign=Spring`);
    expect(campaign.mapping?.id).toBe(spring);
    expect(campaign.reason).toMatch(/ Tracking parameters are ignored\.$/);

    // Left out: a new desktop visitor arriving directly, from nowhere known.
    const anyone = await answer(apiKey, PAGE);
    expect(anyone.mapping?.id).toBe(fallback);
    expect(anyone.mapping).not.toHaveProperty("audience");
    expect(anyone.reason).toBe(
      "Exact match: shop.test/offer is this mapping's URL, and this mapping is the newest published one there without an audience: the visitor belongs to none of its 4 audiences.",
    );
    expect((await answer(apiKey, PAGE, { referrer: "ai", language: "de" })).mapping?.id).toBe(fallback);
  });

  it("answers no mapping when the visitor belongs to none of the rule's audiences and it has no fallback", async () => {
    const { apiKey, ids } = await customerWith([
      { url: "https://shop.test/blog/*", htmlContent: "<p>eu</p>", audience: { name: "EU", eu: true } },
      { url: "https://shop.test/*", htmlContent: "<p>all</p>" },
    ]);
    const post = "https://shop.test/blog/post";
    const inEu = await answer(apiKey, post, { country: "AT" });
    expect(inEu.mapping?.id).toBe(ids[0]);
    expect(inEu.reason).toBe(
      'Prefix match: no published mapping has shop.test/blog/post itself, and shop.test/blog/* is the longest prefix of it that has one; this mapping\'s audience "EU" (priority 100) is the first there this visitor belongs to.',
    );
    // The rule is chosen by the URL alone: a miss does not fall through to the shorter prefix.
    expect(await answer(apiKey, post, { country: "US" })).toEqual({
      mapping: null,
      reason:
        "No mapping serves shop.test/blog/post for this visitor: shop.test/blog/* is its URL rule, and the visitor belongs to none of its 1 audience, and it has no published mapping without an audience.",
    });
  });

  it("refuses a bad attribute with the field's message", async () => {
    const { apiKey } = await customerWith([]);
    for (const [visitor, error] of [
      [{ country: "Germany" }, "country must hold two-letter country codes (ISO 3166-1 alpha-2)"],
      [{ device: "watch" }, "device must be one of mobile, tablet, desktop"],
      [{ referrer: "tv" }, "referrer must be one of search, social, ai, email, direct, other"],
      [{ visitor: "old" }, "visitor must be one of new, returning"],
      [{ continent: "XX" }, "continent must be one of AF, AN, AS, EU, NA, OC, SA"],
      [{ language: "not a tag" }, "language must hold language tags such as de or pt-BR"],
    ] as const) {
      const res = await tested(apiKey, PAGE, visitor);
      expect(res.status, JSON.stringify(visitor)).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
  });
});
