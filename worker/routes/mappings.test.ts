import { eq } from "drizzle-orm";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Mapping } from "#contract/responses";
import { EXACT_WITH_SUFFIX, PREFIX_WITHOUT_SUFFIX } from "#contract/url-rules";
import { expectStoreMatchesD1, storedEntry } from "../test/delivery-store";
import { THROTTLES } from "../auth/throttle";
import { urlMappings } from "../db/schema";
import { takeRateLimits } from "../models/rate-limits";
import { call, createVerifiedCustomer, db } from "../test/helpers";

async function add(apiKey: string, url: string, htmlContent = "<p>hi</p>") {
  return call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent } });
}

describe("/api/mappings", () => {
  it("adds a published mapping, lists it with zero counts, and writes it through to KV", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await add(apiKey, "https://www.Example.com/Pricing/", "<h1>Sale</h1>");
    expect(res.status).toBe(201);
    const created = (await res.json()) as Mapping;
    expect(created).toMatchObject({
      userId: user.id,
      url: "https://www.Example.com/Pricing/",
      htmlContent: "<h1>Sale</h1>",
      totalRequests: 0,
      contentDeliveryCount: 0,
    });
    expect(created.publishedAt).not.toBeNull();
    const list = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(list.map((m) => m.id)).toEqual([created.id]);
    expect(await storedEntry(user.id, "example.com/pricing")).toEqual({ mappingId: created.id, html: "<h1>Sale</h1>" });
  });

  it("refuses an invalid URL with 'Please enter a valid URL' and adds nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await add(apiKey, "not a url");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Please enter a valid URL" });
    expect(await (await call("/api/mappings", { apiKey })).json()).toEqual([]);
  });

  it("takes HTML of 256 KB (262,144 bytes) and refuses one byte more, counted in UTF-8, storing nothing", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await add(apiKey, "https://a.com/full", "x".repeat(262_144))).status).toBe(201);
    const error = { error: "HTML content must be at most 256 KB (262,144 bytes)" };
    for (const html of ["x".repeat(262_145), "€".repeat(87_382) /* 87,382 characters, 262,146 bytes */]) {
      const res = await add(apiKey, "https://a.com/over", html);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(error);
    }
    const list = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(list.map((m) => m.url)).toEqual(["https://a.com/full"]);
    expect(await storedEntry(user.id, "a.com/full")).toMatchObject({ html: "x".repeat(262_144) });
    await expectStoreMatchesD1(user.id);
  });

  it("takes a URL of 2,048 characters, refuses a longer one and one that is not http(s)", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const url = (length: number) => `https://a.com/${"p".repeat(length - "https://a.com/".length)}`;
    expect((await add(apiKey, url(2_048))).status).toBe(201);
    for (const [bad, error] of [
      [url(2_049), "URL must be at most 2,048 characters"],
      ["ftp://a.com/file", "URL must start with http:// or https://"],
      ["javascript:alert(1)", "URL must start with http:// or https://"],
    ]) {
      const res = await add(apiKey, bad!);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    expect((await (await call("/api/mappings", { apiKey })).json()) as Mapping[]).toHaveLength(1);
  });

  it("takes any HTML within its cap however JSON escapes it, and answers 413 past the body cap", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    // Every quote doubles in JSON: 262,144 bytes of HTML become 524,288 bytes of body, well within the cap, which
    // leaves room for an experiment's variants too (docs/experiments.md): 2,629,632 bytes.
    expect((await add(apiKey, "https://a.com/quotes", '"'.repeat(262_144))).status).toBe(201);
    const res = await add(apiKey, "https://a.com/huge", "x".repeat(2_700_000));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: "Request body too large: at most 2,568 KB (2,629,632 bytes) is accepted",
    });
    const list = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(list.map((m) => m.url)).toEqual(["https://a.com/quotes"]);
  });

  it("needs an API key", async () => {
    expect((await call("/api/mappings")).status).toBe(401);
    expect(
      (await call("/api/mappings", { method: "POST", json: { url: "https://a.com", htmlContent: "" } })).status,
    ).toBe(401);
  });

  it("shows a customer only their own mappings", async () => {
    const a = await createVerifiedCustomer("a@example.com");
    const b = await createVerifiedCustomer("b@example.com");
    await add(a.apiKey, "https://a.com/");
    expect(await (await call("/api/mappings", { apiKey: b.apiKey })).json()).toEqual([]);
  });

  it("deletes the customer's own mapping and removes it from KV", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    const res = await call(`/api/mappings/${id}`, { method: "DELETE", apiKey });
    expect(await res.json()).toEqual({ message: "URL mapping deleted successfully" });
    expect(await (await call("/api/mappings", { apiKey })).json()).toEqual([]);
    expect(await storedEntry(user.id, "a.com/x")).toBeNull();
  });

  it("answers 404 for another customer's mapping and changes nothing", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    const { id } = (await (await add(owner.apiKey, "https://a.com/x")).json()) as Mapping;
    const del = await call(`/api/mappings/${id}`, { method: "DELETE", apiKey: other.apiKey });
    expect(del.status).toBe(404);
    expect(await del.json()).toEqual({ error: "Mapping not found" });
    const patch = await call(`/api/mappings/${id}/status`, {
      method: "PATCH",
      apiKey: other.apiKey,
      json: { status: "unpublished" },
    });
    expect(patch.status).toBe(404);
    const list = (await (await call("/api/mappings", { apiKey: owner.apiKey })).json()) as Mapping[];
    expect(list).toHaveLength(1);
    expect(list[0]!.publishedAt).not.toBeNull();
  });

  it("answers 400 for a non-numeric id and 404 for an unknown one", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await call("/api/mappings/abc", { method: "DELETE", apiKey })).status).toBe(400);
    expect((await call("/api/mappings/999", { method: "DELETE", apiKey })).status).toBe(404);
  });

  it("unpublishes (Draft, out of KV) and publishes again", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    const draft = (await (
      await call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status: "unpublished" } })
    ).json()) as Mapping;
    expect(draft.publishedAt).toBeNull();
    expect(await storedEntry(user.id, "a.com/x")).toBeNull();
    const published = (await (
      await call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status: "published" } })
    ).json()) as Mapping;
    expect(published.publishedAt).not.toBeNull();
    expect(await storedEntry(user.id, "a.com/x")).toEqual({ mappingId: id, html: "<p>hi</p>" });
  });

  it("refuses an unknown status", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    const res = await call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status: "gone" } });
    expect(res.status).toBe(400);
  });
});

describe("removing every mapping of a URL (DELETE /api/mappings/{id}?scope=url)", () => {
  const grouped = async (apiKey: string) =>
    (await (await call("/api/mappings?group=url&limit=50", { apiKey })).json()) as Mapping[];
  const removeUrl = (apiKey: string, id: number, scope = "url") =>
    call(`/api/mappings/${id}?scope=${scope}`, { method: "DELETE", apiKey });

  it("says in the dashboard's rows how many mappings each URL has", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    for (const html of ["<p>1</p>", "<p>2</p>", "<p>3</p>"]) await add(apiKey, "https://a.com/x", html);
    await add(apiKey, "https://a.com/y");
    const rows = await grouped(apiKey);
    expect(rows.map((r) => [r.url, r.htmlContent, r.urlMappingCount])).toEqual([
      ["https://a.com/y", "<p>hi</p>", 1],
      ["https://a.com/x", "<p>3</p>", 3],
    ]);
  });

  it("removes the URL's mappings, each restorable, and the URL delivers nothing; other URLs stay", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    for (const html of ["<p>1</p>", "<p>2</p>"]) await add(apiKey, "http://A.com/x/", html);
    const newest = (await (await add(apiKey, "https://a.com/x", "<p>3</p>")).json()) as Mapping;
    await add(apiKey, "https://a.com/y");

    const res = await removeUrl(apiKey, newest.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Delivery-Everywhere-By")).not.toBeNull();
    expect(await res.json()).toEqual({ message: "3 URL mappings deleted successfully", deleted: 3, remaining: 0 });
    expect((await grouped(apiKey)).map((r) => r.url)).toEqual(["https://a.com/y"]);
    expect(await storedEntry(user.id, "a.com/x")).toBeNull();
    expect(await storedEntry(user.id, "a.com/y")).not.toBeNull();
    const deleted = (await (await call("/api/mappings/deleted", { apiKey })).json()) as { htmlContent: string }[];
    expect(deleted.map((d) => d.htmlContent).sort()).toEqual(["<p>1</p>", "<p>2</p>", "<p>3</p>"]);
    await expectStoreMatchesD1(user.id);
  });

  it("answers 404 for another customer's mapping and 400 for an unknown scope, and removes nothing", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    const { id } = (await (await add(owner.apiKey, "https://a.com/x")).json()) as Mapping;
    const foreign = await removeUrl(other.apiKey, id);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: "Mapping not found" });
    const bad = await removeUrl(owner.apiKey, id, "all");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Scope must be "url" (every mapping of the URL) or left out' });
    expect(await grouped(owner.apiKey)).toHaveLength(1);
  });

  it("removes at most 5,000 at a time, oldest first, so the newest still shows until the last request", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await env.DB.prepare(
      `insert into url_mappings (url, normalized_url, html_content, user_id, created_at, published_at)
       with recursive n(i) as (select 1 union all select i + 1 from n where i < 5010)
       select 'https://a.com/x', 'a.com/x', '<p>' || i || '</p>', ?1, 1700000000000 + i, 1700000000000 + i from n`,
    )
      .bind(user.id)
      .run();
    const newest = (await (await add(apiKey, "https://a.com/x", "<p>newest</p>")).json()) as Mapping;

    const first = await removeUrl(apiKey, newest.id);
    expect(await first.json()).toEqual({
      message: "5,000 URL mappings deleted successfully; 11 URL mappings of this URL remain: remove again for the rest",
      deleted: 5000,
      remaining: 11,
    });
    expect(await storedEntry(user.id, "a.com/x")).toMatchObject({ mappingId: newest.id });
    const second = await removeUrl(apiKey, newest.id);
    expect(await second.json()).toEqual({ message: "11 URL mappings deleted successfully", deleted: 11, remaining: 0 });
    expect(await storedEntry(user.id, "a.com/x")).toBeNull();
  });
});

describe("PATCH /api/mappings/{id}", () => {
  const change = (apiKey: string, id: number, json: unknown) =>
    call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json });

  it("changes the HTML, placement and SEO fields in place, answers them back, and the store delivers them", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const created = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    expect(created).toMatchObject({ placement: { position: "body-start" }, seo: {} });
    const res = await change(apiKey, created.id, {
      htmlContent: "<p>new</p>",
      placement: { position: "inside", selector: "#slot" },
      seo: { title: "Sale", canonical: "https://a.com/x", jsonLd: '{"@type":"Offer"}' },
    });
    expect(res.status).toBe(200);
    const changed = (await res.json()) as Mapping;
    expect(changed).toMatchObject({
      id: created.id,
      url: "https://a.com/x",
      htmlContent: "<p>new</p>",
      createdAt: created.createdAt,
      placement: { position: "inside", selector: "#slot" },
      seo: { title: "Sale", canonical: "https://a.com/x", jsonLd: { "@type": "Offer" } },
    });
    expect(await storedEntry(user.id, "a.com/x")).toEqual({
      mappingId: created.id,
      html: "<p>new</p>",
      placement: { position: "inside", selector: "#slot" },
      seo: { title: "Sale", canonical: "https://a.com/x", jsonLd: { "@type": "Offer" } },
    });
    // Back to the defaults: the entry is SPEC.md's plain HTML again.
    const reset = await change(apiKey, created.id, { placement: { position: "body-start" }, seo: {} });
    expect(await reset.json()).toMatchObject({ placement: { position: "body-start" }, seo: {} });
    expect(await storedEntry(user.id, "a.com/x")).toEqual({ mappingId: created.id, html: "<p>new</p>" });
    await expectStoreMatchesD1(user.id);
  });

  it("moves a mapping to another URL: the old URL delivers nothing, the new one the mapping, and no event is spent", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/old")).json()) as Mapping;
    const res = await change(apiKey, id, { url: "https://a.com/new?utm_source=x" });
    expect(res.status).toBe(200);
    expect(await storedEntry(user.id, "a.com/old")).toBeNull();
    expect(await storedEntry(user.id, "a.com/new")).toEqual({ mappingId: id, html: "<p>hi</p>" });
    const dashboard = (await (await call("/api/user/dashboard", { apiKey })).json()) as {
      usage: { dynamicEvents: number; activeWebsites: number };
    };
    expect(dashboard.usage).toMatchObject({ dynamicEvents: 1, activeWebsites: 1 });
    await expectStoreMatchesD1(user.id);
  });

  it("lets a one-website plan move its only website, and refuses a second one with the plan's message", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://typo.test/x")).json()) as Mapping;
    expect((await change(apiKey, id, { url: "https://shop.test/x" })).status).toBe(200);
    await add(apiKey, "https://shop.test/y");
    const refused = await change(apiKey, id, { url: "https://blog.test/x" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Your plan allows 1 website. Upgrade your plan to add blog.test." });
    expect(await storedEntry(user.id, "shop.test/x")).toEqual({ mappingId: id, html: "<p>hi</p>" });
    await expectStoreMatchesD1(user.id);
  });

  it("checks the URL and its match together, taking the unchanged one from the mapping", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/blog/*")).json()) as Mapping;
    const exact = await change(apiKey, id, { match: "exact" });
    expect(exact.status).toBe(400);
    expect(await exact.json()).toEqual({ error: EXACT_WITH_SUFFIX });
    const prefix = await change(apiKey, id, { url: "https://a.com/blog/post", match: "prefix" });
    expect(prefix.status).toBe(400);
    expect(await prefix.json()).toEqual({ error: PREFIX_WITHOUT_SUFFIX });
    // Without a match, as on create, the URL says which: this one is exact.
    const moved = await change(apiKey, id, { url: "https://a.com/blog/post" });
    expect(moved.status).toBe(200);
    const match = await call(`/api/mappings/match?url=${encodeURIComponent("https://a.com/blog/other")}`, { apiKey });
    expect(((await match.json()) as { mapping: unknown }).mapping).toBeNull();
  });

  it("refuses bad input with the field's message and changes nothing", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    for (const [body, error] of [
      [{}, "Nothing to change: send url, htmlContent, match, placement, seo, status, publishAt or unpublishAt"],
      [{ placement: { position: "inside" } }, 'A selector is required for "before", "after", "inside" and "replace"'],
      [{ placement: { position: "body-start", selector: "#a" } }, 'The top of <body> ("body-start") takes no selector'],
      [{ seo: { canonical: "/relative" } }, "The canonical URL must be an absolute http:// or https:// URL"],
      [{ seo: { jsonLd: "{not json" } }, "JSON-LD must be a JSON object or array"],
      [{ url: "javascript:alert(1)" }, "URL must start with http:// or https://"],
    ] as const) {
      const res = await change(apiKey, id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    expect(await storedEntry(user.id, "a.com/x")).toEqual({ mappingId: id, html: "<p>hi</p>" });
  });

  it("answers 404 for another customer's mapping and changes nothing", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    const { id } = (await (await add(owner.apiKey, "https://a.com/x")).json()) as Mapping;
    const res = await change(other.apiKey, id, { htmlContent: "<p>mine</p>" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Mapping not found" });
    expect(await storedEntry(owner.user.id, "a.com/x")).toEqual({ mappingId: id, html: "<p>hi</p>" });
  });
});

describe("changes to mappings", () => {
  const { max } = THROTTLES["mapping-change"].perAccount;

  it(`are throttled per account: ${max} a minute, then 429 with Retry-After; reading is not`, async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    // The throttle names accounts in lower case (throttle.ts).
    const bucket = {
      bucket: `mapping-change:account:${user.id.toLowerCase()}`,
      ...THROTTLES["mapping-change"].perAccount,
    };
    for (let i = 0; i < max - 1; i++) await takeRateLimits(db(), [bucket]);
    expect((await add(apiKey, "https://shop.test/a")).status).toBe(201);
    const refused = await add(apiKey, "https://shop.test/b");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual({ error: "Too many changes to mappings. Please try again in a minute." });
    const urls = await db().select({ url: urlMappings.url }).from(urlMappings).where(eq(urlMappings.userId, user.id));
    expect(urls).toEqual([{ url: "https://shop.test/a" }]);
    expect((await call("/api/mappings", { apiKey })).status).toBe(200);
  });
});
