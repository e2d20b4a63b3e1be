/**
 * @module A page view, counted the same whichever path served it (the content endpoint for the snippet, the edge
 * proxy): one analytics message, sent after the answer in `waitUntil`. The consumer counts it only on the
 * customer's own websites. It names the visitor by a salted hash of their IP address (or IPv6 /64) that changes
 * every day: enough to hold one visitor to a share of a customer's quota that day (docs/analytics.md), never an
 * address, and nothing that follows a person from one day to the next.
 */
import type { AnalyticsMessage } from "../messages/analytics";
import { URL_MAX_LENGTH } from "#contract/input-caps";
import { utcDay } from "../lib/days";
import type { Env } from "../env";
import { USER_AGENT_MAX_LENGTH } from "../http/client-info";
import { sha256Base64Url } from "../lib/crypto";
import type { DeliveredMapping } from "./store";

const capped = (value: string | null | undefined, max: number) => (value == null ? null : value.slice(0, max));

export interface PageView {
  userId: string;
  /** The page URL without its hash. */
  url: string;
  match: DeliveredMapping | undefined;
  /** The visitor's request, for its User-Agent and Referer. */
  request: Request;
  /** The visitor (http/client-info.ts `visitorKey`): "unknown" without Cloudflare's header. */
  visitor: string;
}

/** The visitor as the day's analytics name them (16 characters), or null when the address is not known. */
export async function visitorId(env: Pick<Env, "APP_SECRET">, visitor: string, now: number): Promise<string | null> {
  if (visitor === "unknown") return null;
  return (await sha256Base64Url(`${utcDay(now)} ${visitor} ${env.APP_SECRET ?? ""}`)).slice(0, 16);
}

export async function pageViewMessage(
  env: Pick<Env, "APP_SECRET">,
  view: PageView,
  now = Date.now(),
): Promise<AnalyticsMessage> {
  const { userId, url, match, request } = view;
  return {
    id: crypto.randomUUID(),
    userId,
    url: capped(url, URL_MAX_LENGTH)!,
    mappingId: match?.mappingId ?? null,
    delivered: match !== undefined,
    timestamp: now,
    userAgent: capped(request.headers.get("User-Agent"), USER_AGENT_MAX_LENGTH),
    referer: capped(request.headers.get("Referer"), URL_MAX_LENGTH),
    visitor: await visitorId(env, view.visitor, now),
  };
}

/** Counts a page view after the answer; a failed send is logged, never the visitor's problem. */
export function countPageView(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, view: PageView): void {
  ctx.waitUntil(
    pageViewMessage(env, view)
      .then((message) => env.ANALYTICS_QUEUE.send(message))
      .catch((err) => console.error("Analytics enqueue failed", err)),
  );
}
