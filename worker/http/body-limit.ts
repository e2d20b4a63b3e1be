/**
 * @module Caps on request bodies (Hono's `bodyLimit`), applied to every API route before anything is parsed: past
 * its cap a request is answered 413 in the one error shape, naming the cap, and nothing is read further or stored.
 * Every route gets the default cap unless it declares its own with `bodyCap` among its handlers.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { matchedRoutes } from "hono/route";
import { EXPERIMENT_MAX_BYTES } from "#contract/experiments";
import { formatNumber, HTML_CONTENT_MAX_BYTES } from "#contract/input-caps";
import { errorResponse } from "./errors";

const KB = 1024;

/** Every JSON body but a mapping's holds a few short fields; the largest, a product version, stays under 8 KB. */
export const DEFAULT_BODY_MAX_BYTES = 16 * KB;

/**
 * A mapping, new or changed: twice its HTML's cap and its experiment's, because JSON escaping of quotes, backslashes
 * and line breaks can double a text, plus 8 KB for the URL and the JSON around them. So any HTML and experiment
 * within their own caps fit, and one over them gets the field's message rather than this one.
 */
export const MAPPING_BODY_MAX_BYTES = 2 * (HTML_CONTENT_MAX_BYTES + EXPERIMENT_MAX_BYTES) + 8 * KB;

/** PayPal's notification of a subscription payment is 1 to 3 KB. */
export const IPN_BODY_MAX_BYTES = 8 * KB;

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

/** The caps routes declare, so that the default steps aside for them. */
const declaredCaps = new WeakSet<MiddlewareHandler>();

/** A route's own cap, in place of the default: `.post("/", bodyCap(MAPPING_BODY_MAX_BYTES), …)`. */
export function bodyCap(maxBytes: number): MiddlewareHandler {
  const cap = limit(maxBytes);
  declaredCaps.add(cap);
  return cap;
}

const defaultLimit = limit(DEFAULT_BODY_MAX_BYTES);

/** The default cap, for every API route that declares none. */
export const capRequestBody: MiddlewareHandler = (c, next) =>
  matchedRoutes(c).some((route) => declaredCaps.has(route.handler)) ? next() : defaultLimit(c, next);
