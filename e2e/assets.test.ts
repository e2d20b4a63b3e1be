/**
 * The build's files: hashed file names (`/assets/*`) are cached by browsers for good (a new build has new names),
 * so returning visitors load the SPA without asking again. `/snippet.js` is served by the platform alone, with the
 * headers of web/public/_headers (wrangler.toml `run_worker_first`).
 */
import { describe, expect, it } from "vitest";
import { baseURL } from "./support/product";

describe("static assets", () => {
  it("serves the hashed build files as immutable, and the page that names them as always fresh", async () => {
    const page = await fetch(`${baseURL}/login`);
    const html = await page.text();
    expect(page.headers.get("Cache-Control") ?? "").not.toContain("immutable");
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();

    const asset = await fetch(baseURL + script!);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("answers a missing build file 404, with the page's policy, never the SPA and never cached", async () => {
    const res = await fetch(`${baseURL}/assets/x/admin`, { headers: { "Sec-Fetch-Dest": "iframe" } });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("<!doctype html>");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  });

  it("serves /snippet.js as a static asset: its cache and CORS headers, an ETag that revalidates, no Worker headers", async () => {
    const snippet = await fetch(`${baseURL}/snippet.js`);
    expect(snippet.status).toBe(200);
    expect(snippet.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(snippet.headers.get("Cache-Control")).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(snippet.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(snippet.headers.get("X-Content-Type-Options")).toBe("nosniff");
    // The Worker never ran: none of the headers it gives every answer of its own.
    expect(snippet.headers.get("Content-Security-Policy")).toBeNull();
    expect(await snippet.text()).toMatch(/^\(\(\)=>\{/);

    const etag = snippet.headers.get("ETag");
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetch(`${baseURL}/snippet.js`, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
  });
});
