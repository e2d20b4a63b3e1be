import { describe, expect, it } from "vitest";
import {
  AUDIENCE_NEEDS_A_CONDITION,
  audienceHeaderValue,
  audienceSchema,
  chooseMapping,
  datedVisitorId,
  matchesAudience,
  NEW_VISITOR_MS,
  visitorKindOf,
  prioritySchema,
  type Audience,
  type AudienceAttributes,
} from "./audiences";
import { classifyReferrer, type ReferrerType } from "./referrers";

/** A desktop visitor from Germany with no referrer, new, speaking German, on a page without parameters. */
const visitor = (
  overrides: Partial<Omit<AudienceAttributes, "query">> & { query?: string } = {},
): AudienceAttributes => ({
  country: "DE",
  continent: "EU",
  device: "desktop",
  referrer: "direct",
  visitor: "new",
  language: "de-de",
  ...overrides,
  query: new URLSearchParams(overrides.query ?? ""),
});

const audience = (conditions: Omit<Audience, "name">): Audience => ({ name: "a", ...conditions });

const problems = (input: unknown) => audienceSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

describe("matchesAudience", () => {
  const cases: [string, Omit<Audience, "name">, AudienceAttributes, boolean][] = [
    ["country in the list", { country: ["AT", "DE"] }, visitor(), true],
    ["country not in the list", { country: ["AT", "CH"] }, visitor(), false],
    ["unknown country never matches a country list", { country: ["DE"] }, visitor({ country: undefined }), false],
    ["continent", { continent: ["EU"] }, visitor(), true],
    ["continent unknown", { continent: ["EU"] }, visitor({ continent: undefined }), false],
    ["eu: true for a member state", { eu: true }, visitor(), true],
    ["eu: true for Switzerland", { eu: true }, visitor({ country: "CH" }), false],
    ["eu: false for Switzerland", { eu: false }, visitor({ country: "CH" }), true],
    ["eu: false for an unknown country", { eu: false }, visitor({ country: undefined }), true],
    ["device", { device: ["mobile", "tablet"] }, visitor({ device: "tablet" }), true],
    ["device not listed", { device: ["mobile"] }, visitor(), false],
    ["referrer", { referrer: ["search", "ai"] }, visitor({ referrer: "ai" }), true],
    ["referrer not listed", { referrer: ["search"] }, visitor({ referrer: "social" }), false],
    [
      "utm source, ignoring case",
      { utm: { source: ["Newsletter"] } },
      visitor({ query: "utm_source=newsletter" }),
      true,
    ],
    ["utm source missing", { utm: { source: ["newsletter"] } }, visitor(), false],
    [
      "utm source and campaign both hold",
      { utm: { source: ["nl"], campaign: ["spring", "summer"] } },
      visitor({ query: "utm_source=nl&utm_campaign=summer" }),
      true,
    ],
    [
      "utm campaign fails while source holds",
      { utm: { source: ["nl"], campaign: ["spring"] } },
      visitor({ query: "utm_source=nl&utm_campaign=summer" }),
      false,
    ],
    ["new visitor", { visitor: "new" }, visitor(), true],
    ["returning wanted, new visitor", { visitor: "returning" }, visitor(), false],
    ["language tag matches its subtags", { language: ["de"] }, visitor({ language: "de-at" }), true],
    ["language tag exactly", { language: ["pt-BR"] }, visitor({ language: "pt-br" }), true],
    ["a subtag does not match its base", { language: ["pt-BR"] }, visitor({ language: "pt" }), false],
    ["a prefix that is not a subtag", { language: ["de"] }, visitor({ language: "dex" }), false],
    ["no language sent", { language: ["de"] }, visitor({ language: undefined }), false],
    ["query value", { query: { plan: ["pro", "team"] } }, visitor({ query: "plan=team" }), true],
    ["query value wrong", { query: { plan: ["pro"] } }, visitor({ query: "plan=free" }), false],
    ["query parameter present, any value", { query: { ref: [] } }, visitor({ query: "ref=" }), true],
    ["query parameter absent", { query: { ref: [] } }, visitor({ query: "plan=pro" }), false],
    ["every condition holds", { country: ["DE"], device: ["desktop"], visitor: "new" }, visitor(), true],
    ["one condition of several fails", { country: ["DE"], device: ["mobile"], visitor: "new" }, visitor(), false],
  ];
  it.each(cases)("%s", (_, conditions, attributes, expected) => {
    expect(matchesAudience(audience(conditions), attributes)).toBe(expected);
  });
});

describe("chooseMapping", () => {
  const mobile = audience({ device: ["mobile"] });
  const german = audience({ country: ["DE"] });
  const m = (id: number, a: Audience | null) => ({ id, audience: a });

  it("takes the first audience in order that the visitor belongs to", () => {
    const ordered = [m(2, mobile), m(3, german), m(1, null)];
    expect(chooseMapping(ordered, visitor({ device: "mobile" }))?.id).toBe(2);
    expect(chooseMapping(ordered, visitor())?.id).toBe(3);
  });

  it("gives the fallback when no audience matches", () => {
    expect(chooseMapping([m(7, mobile), m(8, null)], visitor({ country: "FR" }))?.id).toBe(8);
  });

  it("gives nothing when no audience matches and there is no fallback", () => {
    expect(chooseMapping([m(1, mobile)], visitor())).toBeUndefined();
  });
});

describe("audienceHeaderValue", () => {
  it("keeps a printable ASCII name as it is and percent-encodes any other character, so that it decodes back", () => {
    expect(audienceHeaderValue("DACH mobile (search)")).toBe("DACH mobile (search)");
    for (const name of ["Österreich – neu", "50% off 🎉", "日本"]) {
      expect(audienceHeaderValue(name)).toMatch(/^[\x20-\x7E]+$/);
      expect(decodeURIComponent(audienceHeaderValue(name))).toBe(name);
    }
  });
});

describe("visitorKindOf", () => {
  const now = Date.UTC(2026, 10, 27, 16);

  it("is new without an id, and for NEW_VISITOR_MS after a dated id was made", () => {
    expect(visitorKindOf(undefined, now)).toBe("new");
    expect(visitorKindOf(datedVisitorId(now, "123456"), now)).toBe("new");
    expect(visitorKindOf(datedVisitorId(now - NEW_VISITOR_MS + 1000, "123456"), now)).toBe("new");
    expect(visitorKindOf(datedVisitorId(now - NEW_VISITOR_MS, "123456"), now)).toBe("returning");
  });

  it("takes an id without its time (an older snippet's digits, a UUID) as returning, and a clock far off too", () => {
    expect(visitorKindOf("1234567890123456", now)).toBe("returning");
    expect(visitorKindOf(crypto.randomUUID().replaceAll("-", ""), now)).toBe("returning");
    expect(visitorKindOf(datedVisitorId(now + 2 * NEW_VISITOR_MS, "123456"), now)).toBe("returning");
  });

  it("makes ids that are valid visitor ids", () => {
    expect(datedVisitorId(now, "4242424242")).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });
});

describe("audienceSchema", () => {
  it("takes the issue's whole audience and stores country codes upper case", () => {
    const parsed = audienceSchema.parse({
      name: " DACH ",
      country: ["de", "AT"],
      continent: ["EU"],
      eu: true,
      device: ["mobile"],
      referrer: ["search", "ai"],
      utm: { source: ["nl"], medium: ["email"], campaign: ["spring"] },
      visitor: "returning",
      language: ["de", "pt-BR"],
      query: { plan: ["pro"], ref: [] },
    });
    expect(parsed.name).toBe("DACH");
    expect(parsed.country).toEqual(["DE", "AT"]);
  });

  const refusals: [string, unknown, string][] = [
    ["no condition", { name: "all" }, AUDIENCE_NEEDS_A_CONDITION],
    ["an empty utm", { name: "x", utm: {} }, AUDIENCE_NEEDS_A_CONDITION],
    ["no name", { country: ["DE"] }, "audience.name must be text"],
    ["a long name", { name: "n".repeat(101), eu: true }, "audience.name must be at most 100 characters"],
    [
      "a country name",
      { name: "x", country: ["Germany"] },
      "audience.country must hold two-letter country codes (ISO 3166-1 alpha-2)",
    ],
    ["51 countries", { name: "x", country: Array(51).fill("DE") }, "audience.country may name at most 50 values"],
    ["an empty list", { name: "x", device: [] }, "audience.device must name at least one value"],
    ["an unknown device", { name: "x", device: ["watch"] }, "audience.device must be one of mobile, tablet, desktop"],
    [
      "an unknown referrer type",
      { name: "x", referrer: ["ads"] },
      "audience.referrer must be one of search, social, ai, email, direct, other",
    ],
    [
      "an unknown utm field",
      { name: "x", utm: { term: ["a"] } },
      "audience.utm may hold source, medium and campaign only",
    ],
    [
      "a long utm value",
      { name: "x", utm: { campaign: ["c".repeat(101)] } },
      "audience.utm.campaign must be at most 100 characters",
    ],
    [
      "a bad language tag",
      { name: "x", language: ["German"] },
      "audience.language must hold language tags such as de or pt-BR",
    ],
    [
      "21 query parameters",
      { name: "x", query: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, []])) },
      "audience.query may name at most 20 parameters",
    ],
    [
      "21 values of one parameter",
      { name: "x", query: { p: Array(21).fill("v") } },
      "audience.query may name at most 20 values per parameter",
    ],
    [
      "an unknown condition",
      { name: "x", city: ["Berlin"] },
      "audience may hold name, country, continent, eu, device, referrer, utm, visitor, language, query only",
    ],
  ];
  it.each(refusals)("refuses %s, naming the field", (_, input, message) => {
    expect(problems(input)).toContain(message);
  });

  it("takes priorities from 0 to 1,000 in whole numbers", () => {
    expect(prioritySchema.safeParse(0).success).toBe(true);
    expect(prioritySchema.safeParse(1_000).success).toBe(true);
    expect(prioritySchema.safeParse(1_001).error?.issues[0]?.message).toBe("priority must be at most 1,000");
    expect(prioritySchema.safeParse(1.5).error?.issues[0]?.message).toBe("priority must be a whole number");
  });
});

describe("classifyReferrer", () => {
  const cases: [string | undefined, ReferrerType][] = [
    [undefined, "direct"],
    ["", "direct"],
    ["https://shop.example/cart", "direct"],
    ["https://www.shop.example/", "direct"],
    ["https://www.google.de/", "search"],
    ["https://www.google.co.uk/search?q=x", "search"],
    ["https://www.bing.com/search?q=x", "search"],
    ["https://de.search.yahoo.com/", "search"],
    ["https://chatgpt.com/", "ai"],
    ["https://www.perplexity.ai/search/x", "ai"],
    ["https://gemini.google.com/app", "ai"],
    ["https://copilot.microsoft.com/", "ai"],
    ["https://claude.ai/chat/x", "ai"],
    ["https://m.facebook.com/", "social"],
    ["https://t.co/abc", "social"],
    ["https://www.linkedin.com/feed/", "social"],
    ["https://mail.google.com/mail/u/0/", "email"],
    ["https://outlook.live.com/mail/", "email"],
    ["https://blog.other.example/post", "other"],
    ["https://notgoogle.com/", "other"],
    ["not a url", "other"],
  ];
  it.each(cases)("%s is %s", (referrer, expected) => {
    expect(classifyReferrer(referrer, "shop.example")).toBe(expected);
  });
});
