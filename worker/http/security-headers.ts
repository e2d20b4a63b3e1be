/**
 * @module The security headers of every answer, by what it is (Hono's `secureHeaders`, one policy per kind):
 * - delivery (`/snippet.js`, `/api/content`): read by customers' pages from any origin, never rendered as a page
 *   of ours: `nosniff`, a sandboxing CSP, cross-origin resource policy;
 * - the API (`/api/*`): data, never a page: `nosniff`, a sandboxing CSP that allows nothing, no framing, no cache;
 * - the SPA's pages: a strict CSP without inline script (PayPal's SDK origins allowed, as the plan dialog
 *   loads it on whichever screen the SPA was entered), no framing, `nosniff`, a referrer policy.
 * Every answer over https also carries HSTS.
 */
import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import { isDeliveryPath } from "#contract/delivery-paths";
import type { AppEnv } from "../env";
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

const deliveryHeaders = secureHeaders({
  ...neverAPage,
  crossOriginResourcePolicy: "cross-origin",
  contentSecurityPolicy: { defaultSrc: ["'none'"], sandbox: [] },
});

const apiHeaders = secureHeaders({
  ...neverAPage,
  crossOriginResourcePolicy: "same-origin",
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], sandbox: [] },
});

const pageHeaders = secureHeaders({
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
    frameSrc: [...PAYPAL_ORIGINS, sdkOrigin],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

function headersFor(path: string): MiddlewareHandler {
  if (isDeliveryPath(path)) return deliveryHeaders;
  if (path === "/api" || path.startsWith("/api/")) return apiHeaders;
  return pageHeaders;
}

export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await headersFor(c.req.path)(c, next);
  if (c.req.path.startsWith("/api/") && !c.res.headers.has("Cache-Control")) {
    // Answers carry keys and customers' data: no shared or browser cache keeps them.
    c.res.headers.set("Cache-Control", "no-store");
  }
  if (new URL(c.req.url).protocol === "https:") c.res.headers.set("Strict-Transport-Security", HSTS);
});
