import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Mapping } from "#contract/responses";
import { users } from "../db/schema";
import { storedEntry, storedState } from "../test/delivery-store";
import { call, createCustomerOnPlan, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { lookupWithinBudget } from "./content-route";
import { stateKey, urlKey } from "./keys";
import { lookupDelivery } from "./store";
import { syncCustomerState } from "./sync";

/** A customer with these mappings, on the default plan (1,000 content deliveries a period) or on `plan`. */
async function customerWith(mappings: { url: string; html: string }[], plan?: { dynamicContentLimit: number | null }) {
  const customer = plan
    ? await createCustomerOnPlan(plan)
    : await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
  const ids: number[] = [];
  for (const m of mappings) {
    const res = await call("/api/mappings", {
      method: "POST",
      apiKey: customer.apiKey,
      json: { url: m.url, htmlContent: m.html },
    });
    ids.push(((await res.json()) as Mapping).id);
  }
  return { ...customer, ids };
}

/** The real visitor budget (wrangler.toml CONTENT_VISITOR_LIMITER, or another), counting the calls made to it. */
function countingLimiter(inner = testEnv().CONTENT_VISITOR_LIMITER) {
  const counted = { calls: 0 };
  const limiter: RateLimit = {
    limit: (options) => {
      counted.calls++;
      return inner.limit(options);
    },
  };
  return { limiter, counted };
}

const content = (userId: string, url: string, env = testEnv()) =>
  call(
    `/api/content?u=${encodeURIComponent(userId)}&url=${encodeURIComponent(url)}`,
    { headers: { Origin: "https://shop.test" } },
    env,
  );

describe("GET /api/content", () => {
  it("answers the HTML for a matching page as text no browser renders, with CORS for any origin, and sends one analytics message", async () => {
    const { user, ids } = await customerWith([{ url: "https://www.shop.test/Offer/", html: "<h2>Offer</h2>" }]);
    const env = testEnv();
    const res = await content(user.id, "http://shop.test/offer#top", env);
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; sandbox");
    expect(await res.text()).toBe("<h2>Offer</h2>");
    expect(env.sent).toHaveLength(1);
    expect(env.sent[0]).toMatchObject({
      userId: user.id,
      url: "http://shop.test/offer",
      mappingId: ids[0],
      delivered: true,
    });
  });

  it("gives one visitor 300 requests a minute per customer, then 204 and nothing counted", async () => {
    const shop = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    const other = await customerWith([{ url: "https://other.test/a", html: "O" }]);
    const env = testEnv();
    const from = (ip: string, userId: string, url: string) =>
      call(`/api/content?u=${userId}&url=${encodeURIComponent(url)}`, { headers: { "CF-Connecting-IP": ip } }, env);
    for (let i = 0; i < 300; i++)
      expect((await from("203.0.113.9", shop.user.id, "https://shop.test/a")).status).toBe(200);
    expect(env.sent).toHaveLength(300);

    const refused = await from("203.0.113.9", shop.user.id, "https://shop.test/a");
    expect(refused.status).toBe(204);
    expect(await refused.text()).toBe("");
    expect(env.sent).toHaveLength(300);
    // Other visitors of the customer, and the same visitor at another customer, have budgets of their own.
    expect(await (await from("198.51.100.8", shop.user.id, "https://shop.test/a")).text()).toBe("A");
    expect(await (await from("203.0.113.9", other.user.id, "https://other.test/a")).text()).toBe("O");
    expect(env.sent).toHaveLength(302);
  });

  it("asks the higher unmetered budget for a customer without a request or dynamic-content limit, the metered one otherwise", async () => {
    const unlimited = await customerWith([{ url: "https://free.test/a", html: "F" }], { dynamicContentLimit: null });
    const metered = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    expect(await storedState(unlimited.user.id)).toMatchObject({ unmetered: true });
    expect((await storedState(metered.user.id))!.unmetered).toBeUndefined();
    const { limiter, counted } = countingLimiter();
    const unmetered = countingLimiter(testEnv().UNMETERED_VISITOR_LIMITER);
    const env = testEnv({ CONTENT_VISITOR_LIMITER: limiter, UNMETERED_VISITOR_LIMITER: unmetered.limiter });

    for (let i = 0; i < 3; i++)
      expect(await (await content(unlimited.user.id, "https://free.test/a", env)).text()).toBe("F");
    expect(counted.calls).toBe(0);
    expect(unmetered.counted.calls).toBe(3);
    expect(env.sent).toHaveLength(3);
    for (let i = 0; i < 3; i++)
      expect(await (await content(metered.user.id, "https://shop.test/a", env)).text()).toBe("A");
    expect(counted.calls).toBe(3);
    expect(env.sent).toHaveLength(6);
  });

  it("asks a metered customer's budget after the state is read when the isolate does not remember it, and takes a state without the flag as metered", async () => {
    const unlimited = await customerWith([{ url: "https://free.test/a", html: "F" }], { dynamicContentLimit: null });
    const metered = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    const { limiter, counted } = countingLimiter();
    const env = testEnv({ CONTENT_VISITOR_LIMITER: limiter });
    // Past the per-isolate memo: the state comes from KV, so whether to ask is known only once it is read.
    const later = Date.now() + 60_000;
    const view = (userId: string, url: string, now: number) => lookupWithinBudget(env, userId, url, "203.0.113.4", now);

    expect(await view(unlimited.user.id, "https://free.test/a", later)).toMatchObject({
      serving: true,
      metered: false,
    });
    expect(counted.calls).toBe(0);
    expect(await view(metered.user.id, "https://shop.test/a", later)).toMatchObject({ serving: true, metered: true });
    expect(counted.calls).toBe(1);

    // A state written before the flag existed: metered, so that every visitor stays within their budget.
    await env.DELIVERY.put(
      stateKey(unlimited.user.id),
      JSON.stringify({ active: true, limited: false, complete: true }),
    );
    const afterMemo = later + 60_000;
    expect(await view(unlimited.user.id, "https://free.test/a", afterMemo)).toMatchObject({
      serving: true,
      metered: true,
    });
    expect(counted.calls).toBe(2);
  });

  it("holds one address to the unmetered budget at a customer without limits: past it 204, nothing counted", async () => {
    const unlimited = await customerWith([{ url: "https://free.test/a", html: "F" }], { dynamicContentLimit: null });
    // The binding's own count (wrangler.toml UNMETERED_VISITOR_LIMITER: 3,000 a minute) stood in for by 5.
    const used = new Map<string, number>();
    const five: RateLimit = {
      limit: async ({ key }) => {
        used.set(key, (used.get(key) ?? 0) + 1);
        return { success: used.get(key)! <= 5 };
      },
    };
    const env = testEnv({ UNMETERED_VISITOR_LIMITER: five });
    const from = (ip: string) =>
      call(
        `/api/content?u=${unlimited.user.id}&url=${encodeURIComponent("https://free.test/a")}`,
        { headers: { "CF-Connecting-IP": ip } },
        env,
      );
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await from("198.51.100.7")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 204, 204, 204]);
    expect(env.sent).toHaveLength(5);
    // Another address has its own budget; another /64 too, not another address of the same /64.
    expect((await from("198.51.100.8")).status).toBe(200);
    expect((await from("2001:db8:1:2::1")).status).toBe(200);
    for (let i = 0; i < 4; i++) await from(`2001:db8:1:2::${i + 2}`);
    expect((await from("2001:db8:1:2:ffff::1")).status).toBe(204);
    expect(used.get(`${unlimited.user.id} 198.51.100.7`)).toBe(8);
  });

  it("refuses a metered customer's visitor past the budget found after the state was read: 204 and nothing counted", async () => {
    const metered = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    const spent: RateLimit = { limit: async () => ({ success: false }) };
    const env = testEnv({ CONTENT_VISITOR_LIMITER: spent });
    const found = await lookupWithinBudget(
      env,
      metered.user.id,
      "https://shop.test/a",
      "203.0.113.5",
      Date.now() + 60_000,
    );
    expect(found.serving).toBe(false);
    expect((await content(metered.user.id, "https://shop.test/a", env)).status).toBe(204);
    expect(env.sent).toHaveLength(0);
  });

  it("answers 204 when no mapping matches, and still counts the request", async () => {
    const { user } = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    const env = testEnv();
    const res = await content(user.id, "https://shop.test/b", env);
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(env.sent).toMatchObject([{ mappingId: null, delivered: false }]);
  });

  it("delivers the newest of two mappings that share a normalised URL", async () => {
    const { user } = await customerWith([
      { url: "https://shop.test/a", html: "old" },
      { url: "http://www.shop.test/a/", html: "new" },
    ]);
    expect(await (await content(user.id, "https://shop.test/a")).text()).toBe("new");
  });

  it("never delivers a draft", async () => {
    const { user, apiKey, ids } = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    await call(`/api/mappings/${ids[0]}/status`, { method: "PATCH", apiKey, json: { status: "unpublished" } });
    expect((await content(user.id, "https://shop.test/a")).status).toBe(204);
  });

  it("delivers nothing for an inactive customer and counts nothing", async () => {
    const { user } = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    await db().update(users).set({ isActive: false }).where(eq(users.id, user.id));
    await syncCustomerState(testEnv(), user.id);
    const env = testEnv();
    expect((await content(user.id, "https://shop.test/a", env)).status).toBe(204);
    expect(env.sent).toHaveLength(0);
  });

  it("delivers nothing for an unknown user id and stores nothing for it, nor for a malformed one", async () => {
    const env = testEnv();
    expect((await content("AAAAAAAAAAAAAAAA", "https://shop.test/a", env)).status).toBe(204);
    expect(await storedState("AAAAAAAAAAAAAAAA")).toBeNull();
    expect((await content("nobody", "https://shop.test/a", env)).status).toBe(204);
    expect(await storedState("nobody")).toBeNull();
    expect(env.sent).toHaveLength(0);
  });

  it("looks unknown ids up for at most 100 a minute per visitor, then answers 204 without D1, never writing KV", async () => {
    let lookups = 0;
    const counting = new Proxy(testEnv().DB, {
      get: (db, name) => {
        if (name === "prepare") lookups++;
        const value = Reflect.get(db, name) as unknown;
        return typeof value === "function" ? value.bind(db) : value;
      },
    });
    const env = testEnv({ DB: counting });
    const from = (ip: string, userId: string) =>
      call(
        `/api/content?u=${userId}&url=${encodeURIComponent("https://shop.test/")}`,
        { headers: { "CF-Connecting-IP": ip } },
        env,
      );
    const ids = Array.from({ length: 101 }, (_, i) => `unknown${String(i).padStart(9, "0")}`);
    // Miniflare's Rate Limiting counts in windows of the wall clock's minute: all 101 lookups go in one window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
    for (const id of ids.slice(0, 100)) expect((await from("203.0.113.7", id)).status).toBe(204);
    const withinBudget = lookups;
    expect(withinBudget).toBeGreaterThanOrEqual(100);

    expect((await from("203.0.113.7", ids[100]!)).status).toBe(204);
    expect(lookups).toBe(withinBudget);
    // Another visitor has a budget of their own.
    expect((await from("198.51.100.4", ids[100]!)).status).toBe(204);
    expect(lookups).toBeGreaterThan(withinBudget);
    expect((await env.DELIVERY.list({ prefix: "s:unknown" })).keys).toEqual([]);
  }, 45_000);

  it("answers a URL without an entry as unmapped, without D1, once every entry is written", async () => {
    const { user } = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    const env = testEnv();
    await syncCustomerState(env, user.id);
    await env.DELIVERY.delete(await urlKey(user.id, "shop.test/a"));
    const noD1 = new Proxy({} as D1Database, {
      get: () => {
        throw new Error("D1 was asked");
      },
    });
    // Past the per-isolate memo, so the reads go to KV, which has the state but no entry for the URL.
    const { state, match } = await lookupDelivery({ ...env, DB: noD1 }, user.id, "shop.test/a", Date.now() + 60_000);
    expect(state).toMatchObject({ active: true, complete: true });
    expect(match).toBeNull();
  });

  it("looks a missing entry up in D1 while the customer's entries are incomplete, and fills it for an hour", async () => {
    const { user, ids } = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    const env = testEnv();
    await db().update(users).set({ deliveryStoreComplete: false }).where(eq(users.id, user.id));
    await syncCustomerState(env, user.id);
    await env.DELIVERY.delete(await urlKey(user.id, "shop.test/a"));
    const later = Date.now() + 60_000;
    expect((await lookupDelivery(env, user.id, "shop.test/a", later)).match).toEqual({ mappingId: ids[0], html: "A" });
    expect(await storedEntry(user.id, "shop.test/a")).toEqual({ mappingId: ids[0], html: "A" });
    // An unmapped URL is filled as "no mapping", so the next miss there costs no D1 read either.
    expect((await lookupDelivery(env, user.id, "shop.test/b", later)).match).toBeNull();
    const filled = await env.DELIVERY.getWithMetadata(await urlKey(user.id, "shop.test/b"));
    expect(filled).toMatchObject({ value: "", metadata: { m: null } });
  });

  it("answers a preflight and refuses a request without its parameters", async () => {
    const pre = await call("/api/content", { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const bad = await call("/api/content?u=x");
    expect(bad.status).toBe(400);
    expect((await bad.json()) as object).toHaveProperty("error");
  });
});

describe("GET /api/content?format=json (the snippet's answer)", () => {
  it("answers the HTML, where it goes and the SEO fields in the snippet's short keys, and counts one page view", async () => {
    const customer = await createVerifiedCustomer("json@example.com");
    const created = await call("/api/mappings", {
      method: "POST",
      apiKey: customer.apiKey,
      json: {
        url: "https://shop.test/offer",
        htmlContent: "<p>Sale</p>",
        placement: { position: "replace", selector: "#slot" },
        seo: {
          title: "Sale",
          description: 'Say "hi"',
          robots: "noindex",
          canonical: "https://shop.test/sale",
          jsonLd: { "@type": "Offer", name: "</script><script>alert(1)</script>" },
        },
      },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const env = testEnv();
    const res = await call(
      `/api/content?format=json&u=${customer.user.id}&url=${encodeURIComponent("https://shop.test/offer")}`,
      {},
      env,
    );
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await res.json()).toEqual({
      h: "<p>Sale</p>",
      p: "replace",
      s: "#slot",
      i: id,
      t: "Sale",
      e: [
        ["meta", "name", "description", "content", 'Say "hi"'],
        ["meta", "name", "robots", "content", "noindex"],
        ["link", "rel", "canonical", "href", "https://shop.test/sale"],
      ],
      j: JSON.stringify({ "@type": "Offer", name: "</script><script>alert(1)</script>" }),
    });
    expect(env.sent).toHaveLength(1);
  });

  it("counts the miss the snippet reports with `m` beside the page view, and ignores a malformed one", async () => {
    const customer = await createVerifiedCustomer(`m${crypto.randomUUID()}@example.com`);
    const ask = async (m: string) => {
      const env = testEnv();
      const url = encodeURIComponent("https://shop.test/offer");
      await call(`/api/content?format=json&u=${customer.user.id}&url=${url}&m=${m}`, {}, env);
      return env.analyticsMessages.flatMap((message) => ("views" in message ? (message.misses ?? []) : []));
    };
    expect(await ask("42")).toEqual([{ userId: customer.user.id, mappingId: 42, timestamp: expect.any(Number) }]);
    expect(await ask("4x")).toEqual([]);
    expect(await ask("0")).toEqual([]);
  });

  it("answers a mapping without extras as {h}, and 204 for a page without one; without format=json, SPEC.md's text", async () => {
    const { user } = await customerWith([{ url: "https://shop.test/a", html: "<p>A</p>" }]);
    const ask = (url: string, format = "&format=json") =>
      call(`/api/content?u=${user.id}&url=${encodeURIComponent(url)}${format}`);
    expect(await (await ask("https://shop.test/a")).json()).toEqual({ h: "<p>A</p>" });
    expect((await ask("https://shop.test/none")).status).toBe(204);
    const text = await ask("https://shop.test/a", "");
    expect(text.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("<p>A</p>");
  });
});
