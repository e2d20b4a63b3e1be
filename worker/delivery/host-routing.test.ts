import { afterEach, describe, expect, it, vi } from "vitest";
import { NOT_CONFIGURED_MESSAGE } from "../http/not-configured";
import { call, captureMails, createVerifiedCustomer, testEnv } from "../test/helpers";

const SPA = {
  fetch: async () =>
    new Response("<!doctype html><title>Dynamic Content</title>", { headers: { "Content-Type": "text/html" } }),
} as never;

afterEach(() => vi.restoreAllMocks());

describe("whose host a request is for", () => {
  it("answers the product on PUBLIC_ORIGIN's host, with or without the trailing dot of a full name", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await call("http://dc.test/api/auth", { apiKey })).status).toBe(200);
    expect((await call("http://dc.test./api/auth", { apiKey })).status).toBe(200);
    expect((await call("http://DC.test/api/auth", { apiKey })).status).toBe(200);
    // The same name on another port is another host.
    expect((await call("http://dc.test:8080/api/auth", { apiKey })).status).toBe(421);
  });

  it("answers 421 and nothing of ours for a host that is neither the product's nor a proven website", async () => {
    const e = testEnv({ ASSETS: SPA });
    // (`/snippet.js` never reaches the Worker: a public static asset, served to any host; snippet-asset.test.ts.)
    for (const path of ["/", "/admin-login", "/api/auth", "/api/content?u=x&url=y", "/assets/x.js"]) {
      const res = await call(`https://elsewhere.test${path}`, {}, e);
      expect(res.status, path).toBe(421);
      expect(await res.text(), path).toBe("Misdirected Request: this host is not served here.");
      expect(res.headers.get("Set-Cookie"), path).toBeNull();
    }
  });

  it("under npm start counts 127.0.0.1 and localhost at its port as ours, and no other port", async () => {
    const e = testEnv({ PUBLIC_ORIGIN: "http://127.0.0.1:8787", ASSETS: SPA });
    expect((await call("http://127.0.0.1:8787/login", {}, e)).status).toBe(200);
    expect((await call("http://localhost:8787/login", {}, e)).status).toBe(200);
    expect((await call("http://localhost:9000/login", {}, e)).status).toBe(421);
    // In production a loopback name is nobody's.
    const production = testEnv({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "https://app.dc.test", ASSETS: SPA });
    expect((await call("https://localhost/login", {}, production)).status).toBe(421);
  });

  it("builds every mail link from PUBLIC_ORIGIN, whichever of our hosts the request came in on", async () => {
    const mails = captureMails();
    const e = testEnv({ PUBLIC_ORIGIN: "http://127.0.0.1:8787" });
    const res = await call(
      "http://localhost:8787/api/register",
      { method: "POST", json: { email: "n@example.com" } },
      e,
    );
    expect(res.status).toBe(200);
    expect(mails.lastLink()).toMatch(/^http:\/\/127\.0\.0\.1:8787\/verify-email\?token=/);
  });

  it("describes the API on PUBLIC_ORIGIN in OpenAPI's servers", async () => {
    const e = testEnv({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "https://app.dc.test/" });
    const doc = (await (await call("/api/openapi.json", {}, e)).json()) as { servers: { url: string }[] };
    expect(doc.servers).toEqual([{ url: "https://app.dc.test" }]);
  });

  it.each([
    ["missing", undefined],
    ["not a URL", "app.dc.test"],
    ["not https", "http://app.dc.test"],
    ["with a path", "https://app.dc.test/app"],
  ])("in production with PUBLIC_ORIGIN %s, answers 503 to all but delivery, logged once", async (_, publicOrigin) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const e = testEnv({ ENVIRONMENT: "production", PUBLIC_ORIGIN: publicOrigin, ASSETS: SPA });
    for (const [path, init] of [
      ["/api/register", { method: "POST", json: { email: "n@example.com" } }],
      ["/api/openapi.json", {}],
      ["/api/site-config", {}],
      ["/login", {}],
    ] as const) {
      const res = await call(`https://app.dc.test${path}`, init, e);
      expect(res.status, path).toBe(503);
      expect(await res.json()).toEqual({ error: NOT_CONFIGURED_MESSAGE });
    }
    const { user } = await createVerifiedCustomer("c@example.com");
    const content = await call(`https://app.dc.test/api/content?u=${user.id}&url=https%3A%2F%2Fshop.test%2F`, {}, e);
    expect(content.status).toBe(204);
    const logged = errors.mock.calls.map((args) => String(args[0])).filter((m) => m.includes("product's origin"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^Refusing every request that needs the product's origin: PUBLIC_ORIGIN /);
  });
});
