import { afterEach, describe, expect, it, vi } from "vitest";
import type { Mapping, MappingMatch } from "#contract/responses";
import { expectStoreMatchesD1, storedState } from "../test/delivery-store";
import { call, createVerifiedCustomer, testEnv } from "../test/helpers";

async function customer() {
  return createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
}

async function add(apiKey: string, url: string, htmlContent: string, match?: string) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent, match } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Mapping;
}

/** What the snippet gets for a page: the HTML, or "" for 204. */
async function contentAt(userId: string, url: string, env = testEnv()) {
  const res = await call(`/api/content?u=${userId}&url=${encodeURIComponent(url)}`, {}, env);
  return res.status === 200 ? res.text() : "";
}

const setStatus = (apiKey: string, id: number, status: string) =>
  call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status } });

const tester = async (apiKey: string, url: string) =>
  (await (await call(`/api/mappings/match?url=${encodeURIComponent(url)}`, { apiKey })).json()) as MappingMatch;

afterEach(() => vi.restoreAllMocks());

describe("tracking parameters", () => {
  it("serves a campaign link the page's mapping, and counts the view under the page's URL", async () => {
    const { user, apiKey } = await customer();
    const mapping = await add(apiKey, "https://shop.test/offer", "<p>Offer</p>");
    const env = testEnv();
    for (const url of [
      "https://shop.test/offer?utm_source=newsletter",
      "https://shop.test/offer?gclid=EAIaIQ&utm_medium=cpc",
      "https://www.shop.test/offer/?fbclid=1&msclkid=2#top",
    ]) {
      expect(await contentAt(user.id, url, env), url).toBe("<p>Offer</p>");
    }
    expect(env.sent.map((m) => [m.url, m.mappingId])).toEqual([
      ["https://shop.test/offer", mapping.id],
      ["https://shop.test/offer", mapping.id],
      ["https://www.shop.test/offer/", mapping.id],
    ]);
    // Any other parameter is another page.
    expect(await contentAt(user.id, "https://shop.test/offer?page=2&utm_source=x")).toBe("");
  });

  it("drops them from a mapping's URL too", async () => {
    const { user, apiKey } = await customer();
    await add(apiKey, "https://shop.test/landing?utm_campaign=spring", "<p>Spring</p>");
    expect(await contentAt(user.id, "https://shop.test/landing")).toBe("<p>Spring</p>");
  });
});

describe("the customer's own tracking parameters", () => {
  const setOwn = (apiKey: string, ignoredParameters: unknown) =>
    call("/api/url-rules", { method: "PUT", apiKey, json: { ignoredParameters } });

  it("are dropped like the usual ones, in lookups, counts, new mappings and the tester", async () => {
    const { user, apiKey } = await customer();
    const offer = await add(apiKey, "https://shop.test/offer", "<p>Offer</p>");
    expect(await contentAt(user.id, "https://shop.test/offer?ref=partner")).toBe("");

    const set = await setOwn(apiKey, ["ref", "aff_*", "ref"]);
    expect(set.status).toBe(200);
    const rules = {
      trackingParameters: expect.arrayContaining(["utm_*", "gclid"]),
      ignoredParameters: ["ref", "aff_*"],
    };
    expect(await set.json()).toEqual(rules);
    expect(await (await call("/api/url-rules", { apiKey })).json()).toEqual(rules);
    expect((await storedState(user.id))?.ignoredParameters).toEqual(["ref", "aff_*"]);

    const env = testEnv();
    expect(await contentAt(user.id, "https://shop.test/offer?ref=partner&AFF_ID=7&utm_source=x", env)).toBe(
      "<p>Offer</p>",
    );
    expect(env.sent.map((m) => [m.url, m.mappingId])).toEqual([["https://shop.test/offer", offer.id]]);
    await add(apiKey, "https://shop.test/landing?ref=spring", "<p>Landing</p>");
    expect(await contentAt(user.id, "https://shop.test/landing")).toBe("<p>Landing</p>");
    expect((await tester(apiKey, "https://shop.test/offer?aff_x=1")).mapping?.id).toBe(offer.id);
    await expectStoreMatchesD1(user.id);

    // Another customer's pages keep their parameters.
    const other = await customer();
    await add(other.apiKey, "https://other.test/offer", "<p>Other</p>");
    expect(await contentAt(other.user.id, "https://other.test/offer?ref=partner")).toBe("");
  });

  it.each([
    [["bad name"], "A parameter name may hold letters, digits, _ . - [ ] and end in *"],
    [Array.from({ length: 51 }, (_, i) => `p${i}`), "At most 50 ignored parameters"],
    ["ref", "Ignored parameters must be a list of names"],
  ])("refuse %j with a message and change nothing", async (ignoredParameters, message) => {
    const { apiKey } = await customer();
    const res = await setOwn(apiKey, ignoredParameters);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
    expect(
      ((await (await call("/api/url-rules", { apiKey })).json()) as { ignoredParameters: string[] }).ignoredParameters,
    ).toEqual([]);
  });
});

describe("prefix mappings", () => {
  it("serve every page at or below their path, and carry their match back", async () => {
    const { user, apiKey } = await customer();
    const blog = await add(apiKey, "https://shop.test/blog/*", "<p>Blog</p>", "prefix");
    expect(blog.match).toBe("prefix");
    for (const url of [
      "https://shop.test/blog",
      "https://shop.test/blog/",
      "https://shop.test/blog/2026/post",
      "https://shop.test/blog?page=2",
    ]) {
      expect(await contentAt(user.id, url), url).toBe("<p>Blog</p>");
    }
    for (const url of ["https://shop.test/blogger", "https://shop.test/", "https://other.test/blog/a"]) {
      expect(await contentAt(user.id, url), url).toBe("");
    }
    expect((await storedState(user.id))?.prefixDepths).toEqual([2]);
    await expectStoreMatchesD1(user.id);
  });

  it("take the URL's own /* as prefix without being told, and an exact URL is exact", async () => {
    const { apiKey } = await customer();
    expect((await add(apiKey, "https://shop.test/*", "<p>All</p>")).match).toBe("prefix");
    expect((await add(apiKey, "https://shop.test/a", "<p>A</p>")).match).toBe("exact");
  });

  it("follow the precedence: exact, then the longest prefix, then the newest among equals", async () => {
    const { user, apiKey } = await customer();
    await add(apiKey, "https://shop.test/*", "<p>Site</p>");
    await add(apiKey, "https://shop.test/blog/*", "<p>Blog old</p>");
    const newest = await add(apiKey, "https://shop.test/blog/*", "<p>Blog</p>");
    await add(apiKey, "https://shop.test/blog/2026/*", "<p>2026</p>");
    await add(apiKey, "https://shop.test/blog/2026/launch", "<p>Launch</p>");
    expect(await contentAt(user.id, "https://shop.test/blog/2026/launch")).toBe("<p>Launch</p>");
    expect(await contentAt(user.id, "https://shop.test/blog/2026/other")).toBe("<p>2026</p>");
    expect(await contentAt(user.id, "https://shop.test/blog/2025/x")).toBe("<p>Blog</p>");
    expect(await contentAt(user.id, "https://shop.test/about")).toBe("<p>Site</p>");
    expect((await storedState(user.id))?.prefixDepths).toEqual([1, 2, 3]);

    // Unpublishing the newest falls back to the older one of the prefix; deleting the others to the site's.
    expect((await setStatus(apiKey, newest.id, "unpublished")).status).toBe(200);
    expect(await contentAt(user.id, "https://shop.test/blog/2025/x")).toBe("<p>Blog old</p>");
    await expectStoreMatchesD1(user.id, "after unpublishing");
  });

  it("leave the customer's state without depths once none is published", async () => {
    const { user, apiKey } = await customer();
    const only = await add(apiKey, "https://shop.test/blog/*", "<p>Blog</p>");
    expect((await call(`/api/mappings/${only.id}`, { method: "DELETE", apiKey })).status).toBe(200);
    expect(await contentAt(user.id, "https://shop.test/blog/a")).toBe("");
    expect((await storedState(user.id))?.prefixDepths).toBeUndefined();
    await expectStoreMatchesD1(user.id);
  });

  it.each([
    [
      "prefix without /*",
      "https://shop.test/blog",
      "prefix",
      "A prefix mapping's URL must end in /* (such as https://shop.example/blog/*)",
    ],
    [
      "exact with /*",
      "https://shop.test/blog/*",
      "exact",
      'An exact mapping\'s URL cannot end in /*: use "match": "prefix"',
    ],
    ["a prefix with a query", "https://shop.test/blog?x=1/*", undefined, "A prefix mapping's URL cannot have a query"],
    [
      "a prefix too deep",
      `https://shop.test${"/a".repeat(20)}/*`,
      "prefix",
      "A prefix can name at most 20 levels (the host and 19 path segments)",
    ],
    ["an unknown match", "https://shop.test/a", "regex", 'Match must be "exact" or "prefix"'],
  ])("refuse %s with a message and store nothing", async (_, url, match, message) => {
    const { apiKey } = await customer();
    const res = await call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent: "<p>x</p>", match } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
    expect(await (await call("/api/mappings", { apiKey })).json()).toEqual([]);
  });
});

describe("GET /api/mappings/match", () => {
  it("names the mapping that serves a URL and why, or why none does", async () => {
    const { apiKey } = await customer();
    const offer = await add(apiKey, "https://shop.test/offer", "<p>Offer</p>");
    const blog = await add(apiKey, "https://shop.test/blog/*", "<p>Blog</p>");
    const draft = await add(apiKey, "https://shop.test/draft", "<p>Draft</p>");
    await setStatus(apiKey, draft.id, "unpublished");

    const exact = await tester(apiKey, "https://www.shop.test/offer?utm_source=mail");
    expect(exact.mapping).toMatchObject({ id: offer.id, match: "exact", url: "https://shop.test/offer" });
    expect(exact.reason).toBe(
      "Exact match: shop.test/offer is this mapping's URL, and it is the newest published one there. Tracking parameters are ignored.",
    );
    const prefix = await tester(apiKey, "https://shop.test/blog/2026/post");
    expect(prefix.mapping).toMatchObject({ id: blog.id, match: "prefix" });
    expect(prefix.reason).toBe(
      "Prefix match: no published mapping has shop.test/blog/2026/post itself, and shop.test/blog/* is the longest prefix of it that has one.",
    );
    expect(await tester(apiKey, "https://shop.test/draft")).toEqual({
      mapping: null,
      reason: "No mapping serves shop.test/draft: the mapping for https://shop.test/draft is unpublished.",
    });
    expect(await tester(apiKey, "https://shop.test/nothing/here")).toEqual({
      mapping: null,
      reason:
        "No mapping serves shop.test/nothing/here: no published mapping has this URL or a prefix of it (such as shop.test/*).",
    });
  });

  it("answers only about the caller's own mappings, and refuses a URL that is not one", async () => {
    const owner = await customer();
    const other = await customer();
    await add(owner.apiKey, "https://shop.test/offer", "<p>Offer</p>");
    expect((await tester(other.apiKey, "https://shop.test/offer")).mapping).toBeNull();
    const bad = await call(`/api/mappings/match?url=${encodeURIComponent("javascript:alert(1)")}`, {
      apiKey: owner.apiKey,
    });
    expect(bad.status).toBe(400);
  });
});
