/**
 * @module Caps on request bodies (Hono's `bodyLimit`), applied to every `/api` route before anything is parsed:
 * past its cap a request is answered 413 in the one error shape, naming the cap, and nothing is read further
 * or stored. Every route gets the default cap unless the table below gives it another.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { IMPORT_BODY_MAX_BYTES } from "#contract/bulk";
import { formatNumber, HTML_CONTENT_MAX_BYTES } from "#contract/input-caps";
import { errorResponse } from "./errors";

const KB = 1024;

/** Every JSON body but a mapping's holds a few short fields; the largest, a product version, stays under 8 KB. */
export const DEFAULT_BODY_MAX_BYTES = 16 * KB;

/**
 * A new mapping: twice the HTML cap, because JSON escaping of quotes, backslashes and line breaks can double a
 * text, plus 8 KB for the URL and the JSON around them. So any HTML within its own cap fits, and an HTML over it
 * gets the field's message rather than this one.
 */
export const MAPPING_BODY_MAX_BYTES = 2 * HTML_CONTENT_MAX_BYTES + 8 * KB;

/** PayPal's notification of a subscription payment is 1 to 3 KB. */
export const IPN_BODY_MAX_BYTES = 8 * KB;

const ROUTE_CAPS: readonly { method: string; path: string; maxBytes: number }[] = [
  { method: "POST", path: "/api/mappings", maxBytes: MAPPING_BODY_MAX_BYTES },
  { method: "POST", path: "/api/paypal/ipn", maxBytes: IPN_BODY_MAX_BYTES },
  { method: "POST", path: "/api/mappings/import", maxBytes: IMPORT_BODY_MAX_BYTES },
];

export const bodyTooLarge = (maxBytes: number) =>
  `Request body too large: at most ${formatNumber(maxBytes / KB)} KB (${formatNumber(maxBytes)} bytes) is accepted`;

function limit(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c: Context) => {
      // The sender may be a machine nobody watches (PayPal's IPN): a refusal is never silent.
      console.warn(`${c.req.method} ${c.req.path}: request body over ${formatNumber(maxBytes)} bytes refused`);
      return errorResponse(c, 413, bodyTooLarge(maxBytes));
    },
  });
}

const routeLimits = ROUTE_CAPS.map((r) => ({ ...r, limit: limit(r.maxBytes) }));
const defaultLimit = limit(DEFAULT_BODY_MAX_BYTES);

export const capRequestBody: MiddlewareHandler = (c, next) => {
  const route = routeLimits.find((r) => r.method === c.req.method && r.path === c.req.path);
  return (route?.limit ?? defaultLimit)(c, next);
};
