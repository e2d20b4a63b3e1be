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

function hostOf(origin: string | undefined): string | null {
  if (!origin) return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** The delivery host's name when one of its own is configured; null when delivery shares the public origin. */
export const deliveryHost = (env: Pick<Env, "DELIVERY_ORIGIN">) => hostOf(env.DELIVERY_ORIGIN);

/** The public host's name when PUBLIC_ORIGIN is configured; null when the product answers on any host. */
export const publicHost = (env: Pick<Env, "PUBLIC_ORIGIN">) => hostOf(env.PUBLIC_ORIGIN);
