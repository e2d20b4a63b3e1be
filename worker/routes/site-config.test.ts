import { afterEach, describe, expect, it, vi } from "vitest";
import type { SiteConfig } from "#contract/responses";
import type { Env } from "../env";
import { call, testEnv } from "../test/helpers";

afterEach(() => vi.restoreAllMocks());

async function siteConfig(vars: Partial<Env> = {}) {
  const res = await call("/api/site-config", {}, testEnv(vars));
  expect(res.status).toBe(200);
  return { body: (await res.json()) as SiteConfig, cacheControl: res.headers.get("Cache-Control") };
}

describe("GET /api/site-config", () => {
  it("answers nothing configured, to anyone, cacheable for a few minutes", async () => {
    const { body, cacheControl } = await siteConfig({ SITE_URL: "", TRACKING_PIXEL_URL: undefined });
    expect(body).toEqual({ links: null, trackingPixelUrl: null, snippetOrigin: "http://dc.test" });
    expect(cacheControl).toBe("public, max-age=300");
  });

  it("builds every external link from SITE_URL", async () => {
    const { body } = await siteConfig({ SITE_URL: "https://www.shop-tools.com/" });
    expect(body.links).toEqual({
      home: "https://www.shop-tools.com",
      pricing: "https://www.shop-tools.com/pricing",
      faqs: "https://www.shop-tools.com/faq",
      privacyPolicy: "https://www.shop-tools.com/privacy",
      termsOfService: "https://www.shop-tools.com/terms",
      contact: "https://www.shop-tools.com/contact",
    });
  });

  it("keeps a path prefix of SITE_URL", async () => {
    const { body } = await siteConfig({ SITE_URL: " https://shop-tools.com/en// " });
    expect(body.links?.home).toBe("https://shop-tools.com/en");
    expect(body.links?.termsOfService).toBe("https://shop-tools.com/en/terms");
  });

  it("passes the tracking pixel's address on, query included", async () => {
    const { body } = await siteConfig({ TRACKING_PIXEL_URL: "https://px.ads.test/p.gif?id=42&ev=view" });
    expect(body.trackingPixelUrl).toBe("https://px.ads.test/p.gif?id=42&ev=view");
  });

  it.each([
    ["not a URL", { SITE_URL: "shop-tools.com" }],
    ["a script URL", { SITE_URL: "javascript:alert(1)" }],
    ["another scheme", { SITE_URL: "ftp://shop-tools.com" }],
    ["a query that the paths would land in", { SITE_URL: "https://shop-tools.com/?lang=en" }],
  ])("ignores a SITE_URL that is %s, with a warning that names it", async (_case, vars) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { body } = await siteConfig(vars);
    expect(body.links).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("SITE_URL"));
  });

  it("ignores a tracking pixel that is not an http(s) URL", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { body } = await siteConfig({ TRACKING_PIXEL_URL: "data:image/gif;base64,R0lGOD" });
    expect(body.trackingPixelUrl).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("TRACKING_PIXEL_URL"));
  });
});
