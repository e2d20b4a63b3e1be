import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../app";
import { testEnv } from "../test/helpers";

const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head></html>';

/** The app with a stand-in for the static assets: every page path answers the SPA's index.html. */
function request(url: string, init: RequestInit = {}) {
  const env = testEnv({
    ASSETS: { fetch: async () => new Response(INDEX_HTML, { headers: { "Content-Type": "text/html" } }) } as never,
    PAYPAL_SDK_URL: "http://127.0.0.1:4555/sdk/js",
  });
  return app.request(url, init, env, createExecutionContext());
}

function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("the SPA's pages", () => {
  it("carry a strict CSP without inline script, PayPal's SDK allowed, and no framing", async () => {
    const res = await request("http://dc.test/user-dashboard");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX_HTML);
    const csp = directives(res.headers.get("Content-Security-Policy"));
    expect(csp.get("default-src")).toEqual(["'self'"]);
    const scripts = csp.get("script-src")!;
    expect(scripts).toContain("'self'");
    expect(scripts).toContain("https://www.paypal.com");
    expect(scripts).toContain("http://127.0.0.1:4555");
    expect(scripts.some((s) => s.includes("unsafe"))).toBe(false);
    expect(csp.get("frame-src")).toContain("https://www.paypal.com");
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  it("carry HSTS over https only", async () => {
    expect((await request("http://dc.test/login")).headers.get("Strict-Transport-Security")).toBeNull();
    expect((await request("https://dc.test/login")).headers.get("Strict-Transport-Security")).toMatch(/^max-age=\d+/);
    expect((await request("https://dc.test/api/auth")).headers.get("Strict-Transport-Security")).toMatch(/^max-age=/);
  });
});

describe("the API", () => {
  it("answers data no browser renders or caches, and no other origin may read", async () => {
    for (const [method, path] of [
      ["GET", "/api/auth"],
      ["GET", "/api/nothing-here"],
      ["POST", "/api/register"],
    ] as const) {
      const res = await request(`http://dc.test${path}`, {
        method,
        headers: { Origin: "https://evil.test", "Content-Type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(res.headers.get("Content-Type"), path).toContain("application/json");
      expect(res.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(directives(res.headers.get("Content-Security-Policy")).has("sandbox"), path).toBe(true);
      expect(res.headers.get("Cache-Control"), path).toBe("no-store");
      expect(res.headers.get("Access-Control-Allow-Origin"), path).toBeNull();
    }
  });
});

describe("delivery", () => {
  // The snippet's headers are the static asset's (worker/snippet/snippet-asset.test.ts).
  it("lets any origin read the content, which is never a page", async () => {
    const content = await request("http://dc.test/api/content?u=AAAAAAAAAAAAAAAA&url=https%3A%2F%2Fshop.test%2F");
    expect(content.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(directives(content.headers.get("Content-Security-Policy")).has("sandbox")).toBe(true);
  });
});
