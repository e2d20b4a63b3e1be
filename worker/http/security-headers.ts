/**
 * @module The security headers of every answer, one policy per face of the Worker (app.ts mounts each on its routes;
 * Hono's `secureHeaders`):
 * - delivery (`/api/content`): read by customers' pages from any origin, never rendered as a page of ours:
 *   `nosniff`, a sandboxing CSP, cross-origin resource policy (`/snippet.js` is a static asset: its headers are
 *   in web/public/_headers);
 * - the API (`/api/*`): data, never a page: `nosniff`, a sandboxing CSP that allows nothing, no framing, no cache;
 * - the SPA's pages: a strict CSP without inline script (PayPal's SDK origins allowed, as the plan dialog
 *   loads it on whichever screen the SPA was entered), no framing, `nosniff`, a referrer policy.
 * Every answer over https also carries HSTS.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv, Env } from "../env";
import { pickFrameOrigin } from "./origin";
import { paypalConfig } from "../paypal/config";

export const HSTS = "max-age=63072000; includeSubDomains";

/** PayPal's browser SDK and the windows and frames it opens. */
const PAYPAL_ORIGINS = ["https://www.paypal.com", "https://*.paypal.com", "https://*.paypalobjects.com"];

/** The configured SDK's own origin (a local stand-in in tests) when it is not one of PayPal's. */
function sdkOrigin(c: Context): string {
  try {
    const origin = new URL(paypalConfig((c as Context<AppEnv>).env).sdkUrl).origin;
    return PAYPAL_ORIGINS.includes(origin) ? "" : origin;
  } catch {
    return "";
  }
}

const neverAPage = {
  xContentTypeOptions: true,
  xFrameOptions: "DENY",
  referrerPolicy: "no-referrer",
  strictTransportSecurity: false,
  crossOriginOpenerPolicy: false,
} as const;

export const deliveryHeaders = secureHeaders({
  ...neverAPage,
  crossOriginResourcePolicy: "cross-origin",
  contentSecurityPolicy: { defaultSrc: ["'none'"], sandbox: [] },
});

const apiSecureHeaders = secureHeaders({
  ...neverAPage,
  crossOriginResourcePolicy: "same-origin",
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], sandbox: [] },
});

export const pageHeaders = secureHeaders({
  xContentTypeOptions: true,
  xFrameOptions: "DENY",
  referrerPolicy: "strict-origin-when-cross-origin",
  strictTransportSecurity: false,
  crossOriginResourcePolicy: "same-origin",
  // PayPal's checkout runs in a popup that talks back to its opener.
  crossOriginOpenerPolicy: "same-origin-allow-popups",
  permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: ["self", ...PAYPAL_ORIGINS.slice(0, 1)] },
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...PAYPAL_ORIGINS, sdkOrigin],
    // Radix and PayPal's SDK set inline styles; scripts stay strict.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "https:"],
    fontSrc: ["'self'", "data:"],
    connectSrc: ["'self'", ...PAYPAL_ORIGINS, sdkOrigin],
    // "Pick on page" frames the customer's page on its own origin (docs/placement.md).
    frameSrc: [...PAYPAL_ORIGINS, sdkOrigin, (c) => pickFrameOrigin(c.env as Env) ?? ""],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

/** The API's: data, never a page, never cached (answers carry keys and customers' data). */
export const apiHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await apiSecureHeaders(c, next);
  if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
});

/** Every answer over https, whatever its face. */
export const strictTransportSecurity = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (new URL(c.req.url).protocol === "https:") c.res.headers.set("Strict-Transport-Security", HSTS);
});
