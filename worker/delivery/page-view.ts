/**
 * @module A page view, counted the same whichever path served it (the content endpoint for the snippet, the edge
 * proxy): one analytics message, sent after the answer in `waitUntil`. The consumer counts it only on the
 * customer's own websites.
 */
import type { AnalyticsMessage } from "../analytics/message";
import { URL_MAX_LENGTH } from "../contract/input-caps";
import type { Env } from "../env";
import { USER_AGENT_MAX_LENGTH } from "../http/client-info";
import type { DeliveredMapping } from "./store";

const capped = (value: string | null | undefined, max: number) => (value == null ? null : value.slice(0, max));

export interface PageView {
  userId: string;
  /** The page URL without its hash. */
  url: string;
  match: DeliveredMapping | undefined;
  /** The visitor's request, for its User-Agent and Referer. */
  request: Request;
}

export function pageViewMessage({ userId, url, match, request }: PageView, now = Date.now()): AnalyticsMessage {
  return {
    id: crypto.randomUUID(),
    userId,
    url: capped(url, URL_MAX_LENGTH)!,
    mappingId: match?.mappingId ?? null,
    delivered: match !== undefined,
    timestamp: now,
    userAgent: capped(request.headers.get("User-Agent"), USER_AGENT_MAX_LENGTH),
    referer: capped(request.headers.get("Referer"), URL_MAX_LENGTH),
  };
}

/** Counts a page view after the answer; a failed send is logged, never the visitor's problem. */
export function countPageView(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, view: PageView): void {
  ctx.waitUntil(
    env.ANALYTICS_QUEUE.send(pageViewMessage(view)).catch((err) => console.error("Analytics enqueue failed", err)),
  );
}
