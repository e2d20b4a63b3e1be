import { describe, expect, it } from "vitest";
import type { CustomerDashboard, SiteConfig } from "#contract/responses";
import { call, createVerifiedCustomer, testEnv } from "../test/helpers";

const DELIVERY = "https://cdn.dc.test";
const env = () =>
  testEnv({
    DELIVERY_ORIGIN: `${DELIVERY}/`,
    ASSETS: {
      fetch: async () => new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } }),
    } as never,
  });

/** `call` with a path asks the product's own host, http://dc.test; these ask the delivery host. */
const onDeliveryHost = (path: string, init: RequestInit & { apiKey?: string } = {}) =>
  call(`${DELIVERY}${path}`, init, env());

describe("a delivery host of its own (DELIVERY_ORIGIN)", () => {
  it("is where snippets load from: the dashboard's snippet and the snippet pages' origin", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const dashboard = (await (await call("/api/user/dashboard", { apiKey }, env())).json()) as CustomerDashboard;
    expect(dashboard.jsSnippet).toContain(`<script async src="${DELIVERY}/snippet.js"></script>`);
    const site = (await (await call("/api/site-config", {}, env())).json()) as SiteConfig;
    expect(site.snippetOrigin).toBe(DELIVERY);
  });

  // The snippet, a static asset, is answered on every host before the Worker runs (snippet-asset.test.ts).
  it("answers the content, and nothing else: no dashboard, no API, no key is usable there", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const content = await onDeliveryHost(`/api/content?u=${user.id}&url=${encodeURIComponent("https://shop.test/")}`);
    expect(content.status).toBe(204);
    expect(content.headers.get("Access-Control-Allow-Origin")).toBe("*");
    for (const path of ["/api/auth", "/api/user/dashboard", "/login", "/", "/api/register"]) {
      const res = await onDeliveryHost(path, { apiKey });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("Set-Cookie"), path).toBeNull();
    }
  });

  it("leaves the product's own host serving everything, delivery included", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await call("/api/auth", { apiKey }, env())).status).toBe(200);
    expect((await call(`/api/content?u=${user.id}&url=https%3A%2F%2Fshop.test%2F`, {}, env())).status).toBe(204);
  });
});
