import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Website } from "../contract/responses";
import { edgeHostIndexKey, edgeHostKey } from "../delivery/keys";
import { websites } from "../db/schema";
import { storedState } from "../test/delivery-store";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { WEBSITES_PER_CUSTOMER } from "./websites";

const put = (apiKey: string, hostname: string, json: unknown, e = testEnv()) =>
  call(`/api/websites/${hostname}`, { method: "PUT", apiKey, json }, e);

const edge = { origin: "https://origin.shop.test", mode: "edge" };

describe("/api/websites", () => {
  it("sets a website up (201), changes it (200), lists it with origin and mode, and writes its delivery entries", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const created = await put(apiKey, "WWW.Shop.test.", edge);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      hostname: "shop.test",
      origin: "https://origin.shop.test",
      mode: "edge",
    });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toEqual({
      userId: user.id,
      origin: "https://origin.shop.test",
    });
    expect(await env.DELIVERY.get(edgeHostIndexKey(user.id, "shop.test"))).toBe("");
    expect((await storedState(user.id))?.edgeHosts).toEqual(["shop.test"]);

    const changed = await put(apiKey, "shop.test", { origin: "http://origin.shop.test:8080", mode: "snippet" });
    expect(changed.status).toBe(200);
    const list = await call("/api/websites", { apiKey });
    expect(list.headers.get("X-Total-Count")).toBe("1");
    expect(await list.json()).toEqual([
      expect.objectContaining({ hostname: "shop.test", origin: "http://origin.shop.test:8080", mode: "snippet" }),
    ]);
    // Back to the snippet: the Worker no longer answers for the hostname.
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"))).toBeNull();
    expect(await env.DELIVERY.get(edgeHostIndexKey(user.id, "shop.test"))).toBeNull();
    expect((await storedState(user.id))?.edgeHosts).toBeUndefined();
  });

  it("answers 409 when another account holds the hostname, and leaves it theirs", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    expect((await put(owner.apiKey, "shop.test", edge)).status).toBe(201);
    const res = await put(other.apiKey, "www.shop.test", { origin: "https://evil.test", mode: "edge" });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: "shop.test belongs to another account" });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({
      userId: owner.user.id,
      origin: "https://origin.shop.test",
    });
    expect(await (await call("/api/websites", { apiKey: other.apiKey })).json()).toEqual([]);
  });

  it.each([
    ["not a hostname", "shop_test", edge, "Hostname must be a domain name such as shop.example.com"],
    ["a single label", "localhost", edge, "Hostname must be a domain name such as shop.example.com"],
    ["an IP address", "203.0.113.7", edge, "Hostname must be a domain name such as shop.example.com"],
    [
      "the product's own host",
      "dc.test",
      edge,
      "dc.test is Dynamic Content's own hostname and cannot be a customer's website",
    ],
    [
      "Cloudflare's workers.dev",
      "dc.acme.workers.dev",
      edge,
      "dc.acme.workers.dev is Dynamic Content's own hostname and cannot be a customer's website",
    ],
    [
      "an origin that is not a URL",
      "shop.test",
      { ...edge, origin: "0" },
      "Origin must be a URL such as https://origin.shop.example",
    ],
    [
      "an origin that is not http(s)",
      "shop.test",
      { ...edge, origin: "ftp://origin.shop.test" },
      "Origin must start with http:// or https://",
    ],
    [
      "an origin with a path",
      "shop.test",
      { ...edge, origin: "https://origin.shop.test/shop" },
      "Origin must be a scheme, host and port only, without a path, query or credentials",
    ],
    [
      "an origin with credentials",
      "shop.test",
      { ...edge, origin: "https://u:p@origin.shop.test" },
      "Origin must be a scheme, host and port only, without a path, query or credentials",
    ],
    [
      "the website as its own origin",
      "shop.test",
      { ...edge, origin: "https://www.shop.test" },
      "Origin must be the server that serves the website, not the website's own hostname",
    ],
    [
      "the product as origin",
      "shop.test",
      { ...edge, origin: "http://dc.test" },
      "Origin must be the server that serves the website, not the website's own hostname",
    ],
    ["an unknown mode", "shop.test", { ...edge, mode: "proxy" }, 'Mode must be "snippet" or "edge"'],
  ])("refuses %s with a message and stores nothing", async (_, hostname, body, message) => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await put(apiKey, hostname, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(message);
    expect(await db().select().from(websites)).toEqual([]);
  });

  it("takes a loopback origin only in development, and an IP address never", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const production = testEnv({ ENVIRONMENT: "production" });
    const refused = await put(apiKey, "shop.test", { ...edge, origin: "http://127.0.0.1:8080" }, production);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: "Origin must be a hostname such as https://origin.shop.example, not an IP address",
    });
    expect((await put(apiKey, "shop.test", { ...edge, origin: "http://10.0.0.8" })).status).toBe(400);
    expect((await put(apiKey, "shop.test", { ...edge, origin: "http://127.0.0.1:8080" })).status).toBe(201);
  });

  it(`keeps an account to ${WEBSITES_PER_CUSTOMER.toLocaleString("en-US")} websites, and still lets it change them`, async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const now = new Date();
    const rows = Array.from({ length: WEBSITES_PER_CUSTOMER }, (_, i) => ({
      hostname: `site${i}.test`,
      userId: user.id,
      origin: "https://origin.test",
      mode: "snippet" as const,
      createdAt: now,
      updatedAt: now,
    }));
    // 6 columns a row: batches under D1's 100 bound parameters.
    for (let i = 0; i < rows.length; i += 16)
      await db()
        .insert(websites)
        .values(rows.slice(i, i + 16));
    const res = await put(apiKey, "one-more.test", edge);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "An account can have at most 1,000 websites" });
    expect((await put(apiKey, "site7.test", edge)).status).toBe(200);
    const page = await call("/api/websites?limit=2&offset=1", { apiKey });
    expect(page.headers.get("X-Total-Count")).toBe("1000");
    expect(((await page.json()) as Website[]).map((w) => w.hostname)).toEqual(["site1.test", "site10.test"]);
  });

  it("needs a customer's key", async () => {
    expect((await call("/api/websites")).status).toBe(401);
    expect((await call("/api/websites/shop.test", { method: "PUT", json: edge })).status).toBe(401);
  });
});
