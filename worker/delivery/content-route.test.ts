import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Mapping } from "../contract/responses";
import { users } from "../db/schema";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { writeDocument } from "./document";

async function customerWith(mappings: { url: string; html: string }[]) {
  const customer = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
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
    await writeDocument(testEnv(), user.id);
    const env = testEnv();
    expect((await content(user.id, "https://shop.test/a", env)).status).toBe(204);
    expect(env.sent).toHaveLength(0);
  });

  it("delivers nothing for an unknown user id, and stores nothing for a malformed one", async () => {
    const env = testEnv();
    expect((await content("AAAAAAAAAAAAAAAA", "https://shop.test/a", env)).status).toBe(204);
    expect(await env.DELIVERY.get("doc:AAAAAAAAAAAAAAAA")).not.toBeNull();
    expect((await content("nobody", "https://shop.test/a", env)).status).toBe(204);
    expect(await env.DELIVERY.get("doc:nobody")).toBeNull();
    expect(env.sent).toHaveLength(0);
  });

  it("rebuilds a missing KV document from D1", async () => {
    const { user } = await customerWith([{ url: "https://shop.test/a", html: "A" }]);
    const env = testEnv();
    await env.DELIVERY.delete(`doc:${user.id}`);
    // Past the per-isolate memo, so the read goes to KV and finds nothing.
    const { readDocument } = await import("./document");
    const doc = await readDocument(env, user.id, Date.now() + 60_000);
    expect(doc.mappings["shop.test/a"]?.h).toBe("A");
    expect(await env.DELIVERY.get(`doc:${user.id}`)).not.toBeNull();
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
