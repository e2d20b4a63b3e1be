/**
 * @module The origins the product is reached at: PUBLIC_ORIGIN (dashboard, API, mail links) when configured, else
 * the request's own; and DELIVERY_ORIGIN, the cookieless host customers' pages load the snippet and their content
 * from (default: the public origin).
 */
import type { Context } from "hono";
import type { AppEnv, Env } from "../env";

const withoutTrailingSlashes = (origin: string) => origin.replace(/\/+$/, "");

export function publicOrigin(c: Context<AppEnv>): string {
  return c.env.PUBLIC_ORIGIN ? withoutTrailingSlashes(c.env.PUBLIC_ORIGIN) : new URL(c.req.url).origin;
}

/** Where snippets load `snippet.js` from, and so where the content requests of customers' pages go. */
export function deliveryOrigin(c: Context<AppEnv>): string {
  return c.env.DELIVERY_ORIGIN ? withoutTrailingSlashes(c.env.DELIVERY_ORIGIN) : publicOrigin(c);
}

/** The delivery host's name when one of its own is configured; null when delivery shares the public origin. */
export function deliveryHost(env: Pick<Env, "DELIVERY_ORIGIN">): string | null {
  if (!env.DELIVERY_ORIGIN) return null;
  try {
    return new URL(env.DELIVERY_ORIGIN).host;
  } catch {
    return null;
  }
}
