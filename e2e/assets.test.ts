/**
 * The build's files: hashed file names (`/assets/*`) are cached by browsers for good (a new build has new names),
 * so returning visitors load the SPA without asking again.
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
});
