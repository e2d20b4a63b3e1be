import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Mapping, PreviewLink } from "#contract/responses";
import { users } from "../db/schema";
import { syncCustomerState } from "./sync";
import { call, createCustomerOnPlan, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { provenWebsite } from "../test/websites";
import { EDGE_MARK } from "#contract/delivery-paths";
import { previewLink } from "./preview";

const ORIGIN = "https://origin.shop.test";
const PAGE = "<!doctype html><html><head><title>Shop</title></head><body><h1>Welcome</h1></body></html>";

async function add(apiKey: string, json: object) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json });
  expect(res.status).toBe(201);
  return (await res.json()) as Mapping;
}

async function linkFor(apiKey: string, id: number) {
  const res = await call(`/api/mappings/${id}/preview`, { method: "POST", apiKey });
  expect(res.status).toBe(201);
  return (await res.json()) as PreviewLink;
}

/** What the snippet gets on a page: the content endpoint asked with the page's URL, and what it sent to count. */
async function snippetAsks(userId: string, pageUrl: string) {
  const e = testEnv();
  const res = await call(
    `/api/content?format=json&u=${encodeURIComponent(userId)}&url=${encodeURIComponent(pageUrl)}`,
    {},
    e,
  );
  return { res, counted: e.sent.length, body: res.status === 200 ? ((await res.json()) as { h: string }) : null };
}

afterEach(() => vi.restoreAllMocks());

describe("preview links", () => {
  it("show a draft on its page to whoever opens the link, uncounted and uncached, and nothing to anyone else", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const draft = await add(apiKey, {
      url: "https://shop.test/launch",
      htmlContent: "<p>Coming soon</p>",
      status: "draft",
      seo: { title: "Launch" },
    });
    const link = await linkFor(apiKey, draft.id);
    expect(link.url).toMatch(/^https:\/\/shop\.test\/launch\?dc_preview=[\w-]+\.[0-9a-f]{64}$/);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    const visitor = await snippetAsks(user.id, "https://shop.test/launch");
    expect(visitor.res.status).toBe(204);

    const preview = await snippetAsks(user.id, link.url);
    expect(preview.res.status).toBe(200);
    expect(preview.body).toMatchObject({ h: "<p>Coming soon</p>", t: "Launch" });
    expect(preview.res.headers.get("Cache-Control")).toBe("no-store");
    expect(preview.counted).toBe(0);

    // The plain text answer (SPEC.md's) too, with the campaign's tracking parameters on the link.
    const text = await call(`/api/content?u=${user.id}&url=${encodeURIComponent(`${link.url}&utm_source=mail`)}`);
    expect(await text.text()).toBe("<p>Coming soon</p>");
  });

  it("delivers nothing for a link that is altered, expired, another customer's, on another page or of an inactive customer", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>A</p>", status: "draft" });
    const { url } = await linkFor(apiKey, m.id);
    const token = new URL(url).searchParams.get("dc_preview")!;
    const [payload, signature] = token.split(".") as [string, string];
    const forged = btoa(JSON.stringify({ u: user.id, m: m.id, e: 4_102_444_800 })).replace(/=+$/, "");

    const expired = await previewLink(
      env,
      { id: m.id, userId: user.id, url: m.url },
      new Date(Date.now() - 25 * 3_600_000),
    );
    const cases = {
      "a changed signature": `https://shop.test/a?dc_preview=${payload}.${signature.replace(/^./, (c) => (c === "0" ? "1" : "0"))}`,
      "a payload that was not signed": `https://shop.test/a?dc_preview=${forged}.${signature}`,
      expired: expired.url,
      "another page": `https://shop.test/b?dc_preview=${token}`,
    };
    for (const [what, pageUrl] of Object.entries(cases)) {
      expect((await snippetAsks(user.id, pageUrl)).res.status, what).toBe(204);
    }
    expect((await snippetAsks(other.user.id, url)).res.status, "another customer's id").toBe(204);
    expect((await call(`/api/mappings/${m.id}/preview`, { method: "POST", apiKey: other.apiKey })).status).toBe(404);

    await db().update(users).set({ isActive: false }).where(eq(users.id, user.id));
    await syncCustomerState(env, user.id);
    expect((await snippetAsks(user.id, url)).res.status, "an inactive customer").toBe(204);
  });

  it("stops every link of a mapping when the customer revokes them, and a new link works again", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>A</p>", status: "draft" });
    const first = await linkFor(apiKey, m.id);
    const second = await linkFor(apiKey, m.id);
    expect((await snippetAsks(user.id, second.url)).res.status).toBe(200);

    expect((await call(`/api/mappings/${m.id}/preview`, { method: "DELETE", apiKey: other.apiKey })).status).toBe(404);
    const revoked = await call(`/api/mappings/${m.id}/preview`, { method: "DELETE", apiKey });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ message: "Every preview link of this mapping was revoked" });
    for (const link of [first, second]) expect((await snippetAsks(user.id, link.url)).res.status).toBe(204);

    const fresh = await linkFor(apiKey, m.id);
    expect((await snippetAsks(user.id, fresh.url)).res.status).toBe(200);
    expect((await snippetAsks(user.id, second.url)).res.status).toBe(204);
  });

  it("spends the visitor's budget on every link asked, for a customer without limits too: it reads D1", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>A</p>", status: "draft" });
    const link = await linkFor(apiKey, m.id);
    let calls = 0;
    const budgetOfOne: RateLimit = { limit: async () => ({ success: ++calls <= 1 }) };
    const e = testEnv({ CONTENT_VISITOR_LIMITER: budgetOfOne });
    const ask = () => call(`/api/content?u=${user.id}&url=${encodeURIComponent(link.url)}`, {}, e);
    expect(await (await ask()).text()).toBe("<p>A</p>");
    expect((await ask()).status).toBe(204);
    expect(calls).toBe(2);
  });

  it("honours no link after the mapping was deleted and restored", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>A</p>", status: "draft" });
    const link = await linkFor(apiKey, m.id);
    expect((await call(`/api/mappings/${m.id}`, { method: "DELETE", apiKey })).status).toBe(200);
    expect((await call(`/api/mappings/deleted/${m.id}/restore`, { method: "POST", apiKey })).status).toBe(200);
    expect((await snippetAsks(user.id, link.url)).res.status).toBe(204);
  });

  it("honours no link without a usable APP_SECRET, whose key anyone could guess", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>A</p>", status: "draft" });
    const weak = testEnv({ APP_SECRET: "short" });
    const forged = await previewLink(weak, { id: m.id, userId: user.id, url: m.url });
    const res = await call(
      `/api/content?format=json&u=${encodeURIComponent(user.id)}&url=${encodeURIComponent(forged.url)}`,
      {},
      weak,
    );
    expect(res.status).toBe(204);
  });

  it("previews a prefix mapping on any page under its prefix", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const m = await add(apiKey, { url: "https://shop.test/blog/*", htmlContent: "<p>Blog</p>", status: "draft" });
    const { url } = await linkFor(apiKey, m.id);
    expect(url.startsWith("https://shop.test/blog/?dc_preview=")).toBe(true);
    const token = new URL(url).searchParams.get("dc_preview")!;
    expect((await snippetAsks(user.id, `https://shop.test/blog/post-1?dc_preview=${token}`)).body?.h).toBe(
      "<p>Blog</p>",
    );
    expect((await snippetAsks(user.id, `https://shop.test/shop?dc_preview=${token}`)).res.status).toBe(204);
  });

  it("shows the draft at the edge: in the origin's page, uncounted, never cached, the origin asked without the token", async () => {
    const customer = await createVerifiedCustomer("edge@example.com");
    await provenWebsite(customer.user.id, "shop.test", { origin: ORIGIN, mode: "edge" });
    const m = await add(customer.apiKey, {
      url: "https://shop.test/offer",
      htmlContent: "<p>Draft sale</p>",
      status: "draft",
    });
    const asked: string[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.startsWith(ORIGIN)) return realFetch(input, init);
      asked.push(request.url);
      return new Response(PAGE, { headers: { "Content-Type": "text/html", "Cache-Control": "public, max-age=600" } });
    });
    const { url } = await linkFor(customer.apiKey, m.id);
    const e = testEnv();
    const res = await call(url.replace("https://shop.test", "https://www.shop.test") + "&utm_source=mail", {}, e);
    expect(await res.text()).toBe(
      `<!doctype html><html><head>${EDGE_MARK}<title>Shop</title></head><body><div data-dynamic-content=""><p>Draft sale</p></div><h1>Welcome</h1></body></html>`,
    );
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(asked).toEqual([`${ORIGIN}/offer?utm_source=mail`]);
    expect(e.sent).toHaveLength(0);

    // Without the link, the same page is the origin's, as cacheable as it said.
    const plain = await call("https://shop.test/offer", {}, testEnv());
    expect(await plain.text()).toBe(PAGE);
    expect(plain.headers.get("Cache-Control")).toBe("public, max-age=600");
  });
});
