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
});
