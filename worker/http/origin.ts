/** @module The origin the product is reached at: PUBLIC_ORIGIN when configured, else the request's own. */
import type { Context } from "hono";
import type { AppEnv } from "../env";

export function publicOrigin(c: Context<AppEnv>): string {
  return c.env.PUBLIC_ORIGIN?.replace(/\/+$/, "") || new URL(c.req.url).origin;
}
