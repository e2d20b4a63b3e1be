/** @module Who is on the other end: the client's IP (from Cloudflare's header) and user agent. */
import type { Context } from "hono";

export function clientInfo(c: Context) {
  return {
    ipAddress: c.req.header("CF-Connecting-IP") ?? c.req.header("X-Real-IP") ?? null,
    userAgent: c.req.header("User-Agent") ?? null,
  };
}
