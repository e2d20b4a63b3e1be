/**
 * @module Who is on the other end: the client's IP and user agent. Only Cloudflare's `CF-Connecting-IP` names the
 * client: Cloudflare sets it and no client can, whereas `X-Real-IP` and `X-Forwarded-For` are whatever the client
 * sent.
 */
import type { Context } from "hono";

/** What a client's user agent is kept as, at most (login attempts). */
export const USER_AGENT_MAX_LENGTH = 512;

export function clientInfo(c: Context) {
  return {
    ipAddress: c.req.header("CF-Connecting-IP") ?? null,
    userAgent: c.req.header("User-Agent")?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
  };
}

/**
 * The visitor a per-visitor budget counts: the client's IPv4 address, or the /64 network of an IPv6 one (one
 * subscriber's line hands out a whole /64, so counting single IPv6 addresses would give one machine billions of
 * budgets). "unknown" without Cloudflare's header (local development).
 */
export function visitorKey(ip: string | undefined): string {
  if (!ip) return "unknown";
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
