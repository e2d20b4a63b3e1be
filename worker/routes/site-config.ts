/**
 * @module `GET /api/site-config` (public): the marketing-site links and the tracking pixel, from the Worker's
 * variables `SITE_URL` and `TRACKING_PIXEL_URL`, so an operator changes them without rebuilding the SPA.
 */
import { Hono } from "hono";
import type { ExternalLinks, SiteConfig } from "#contract/responses";
import type { AppEnv, Env } from "../env";
import { deliveryOrigin } from "../http/origin";

/** Browsers may keep the answer a few minutes; a changed variable reaches every visitor within that time. */
const CACHE_CONTROL = "public, max-age=300";

/** The value as an absolute http(s) URL, or null (unset, or unusable: then a warning names the variable). */
function httpUrl(name: string, value: string | undefined): URL | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim());
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
    // reported below
  }
  console.warn(`${name} is not an http(s) URL and is ignored`);
  return null;
}

function marketingLinks(siteUrl: string | undefined): ExternalLinks | null {
  const url = httpUrl("SITE_URL", siteUrl);
  if (!url) return null;
  if (url.search || url.hash) {
    console.warn("SITE_URL must not carry a query or fragment and is ignored");
    return null;
  }
  const home = url.href.replace(/\/+$/, "");
  // The standard pages of a marketing site, under SITE_URL.
  const page = (path: string) => `${home}${path}`;
  return {
    home,
    pricing: page("/pricing"),
    faqs: page("/faq"),
    privacyPolicy: page("/privacy"),
    termsOfService: page("/terms"),
    contact: page("/contact"),
  };
}

export function siteConfig(env: Pick<Env, "SITE_URL" | "TRACKING_PIXEL_URL">): Omit<SiteConfig, "snippetOrigin"> {
  return {
    links: marketingLinks(env.SITE_URL),
    trackingPixelUrl: httpUrl("TRACKING_PIXEL_URL", env.TRACKING_PIXEL_URL)?.href ?? null,
  };
}

export const siteConfigRoutes = new Hono<AppEnv>().get("/", (c) => {
  c.header("Cache-Control", CACHE_CONTROL);
  return c.json<SiteConfig>({ ...siteConfig(c.env), snippetOrigin: deliveryOrigin(c) });
});
