/**
 * @module A page view, counted the same whichever path served it (the content endpoint for the snippet, the edge
 * proxy): an analytics event, sent after the answer in `waitUntil`, gathered with the isolate's other views of the
 * next moments into one queue message (a queue bills each message three times, whatever it holds). The consumer
 * counts it only on the customer's own websites. It names the visitor by a salted hash of their IP address (or
 * IPv6 /64) that changes every day: enough to hold one visitor to a share of a customer's quota that day
 * (docs/analytics.md), never an address, and nothing that follows a person from one day to the next.
 */
import type { GoalEvent, PageViewEvent } from "../messages/analytics";
import { URL_MAX_LENGTH } from "#contract/input-caps";
import { utcDay } from "../lib/days";
import type { Env } from "../env";
import { USER_AGENT_MAX_LENGTH } from "../http/client-info";
import { sha256Base64Url } from "../lib/crypto";
import type { DeliveredMapping } from "./store";
import type { Exposure } from "./variant";

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
  /** The experiment's variant the view showed (delivery/variant.ts), if any. */
  exposure?: Exposure;
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
): Promise<PageViewEvent> {
  const { userId, url, match, request, exposure } = view;
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
    ...(exposure ? { vid: exposure.vid, experiment: exposure.experiment, variant: exposure.variant } : {}),
  };
}

/** How long an isolate gathers page views into one message by default (PAGE_VIEW_BUNDLE_MS overrides it). */
export const BUNDLE_WINDOW_MS = 5_000;
/** A message's size: Cloudflare bills every 64 KB of a message as another operation; views are at most ~5 KB. */
export const BUNDLE_MAX_BYTES = 48 * 1024;
export const BUNDLE_MAX_VIEWS = 100;

interface OpenBundle {
  views: PageViewEvent[];
  goals: GoalEvent[];
  bytes: number;
  sent: boolean;
}

/**
 * The isolate's views not sent yet. The request whose view opens a bundle sends it once the window has passed, or
 * the request that finds it full sends it at once; the views of other requests that joined it go with it, so no
 * request waits on another's promise. A failed send is logged: the visitor has their answer already.
 */
let open: OpenBundle | null = null;
const utf8 = new TextEncoder();

function bundleWindowMs(env: Pick<Env, "PAGE_VIEW_BUNDLE_MS">): number {
  const ms = Number(env.PAGE_VIEW_BUNDLE_MS ?? BUNDLE_WINDOW_MS);
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, 10_000) : BUNDLE_WINDOW_MS;
}

async function send(env: Env, bundle: OpenBundle): Promise<void> {
  if (bundle.sent) return;
  bundle.sent = true;
  if (open === bundle) open = null;
  try {
    const { views, goals } = bundle;
    await env.ANALYTICS_QUEUE.send(goals.length > 0 ? { views, goals } : { views });
  } catch (err) {
    console.error(
      `Analytics enqueue of ${bundle.views.length} page views and ${bundle.goals.length} goals failed`,
      err,
    );
  }
}

type Gathered = { view: PageViewEvent } | { goal: GoalEvent };

const count = (bundle: OpenBundle) => bundle.views.length + bundle.goals.length;

function gather(bundle: OpenBundle, item: Gathered) {
  if ("view" in item) bundle.views.push(item.view);
  else bundle.goals.push(item.goal);
}

/** Adds a view or goal to the isolate's bundle; answers what the caller's `waitUntil` must wait for. */
async function enqueue(env: Env, item: Gathered): Promise<void> {
  const bytes = utf8.encode(JSON.stringify("view" in item ? item.view : item.goal)).byteLength;
  const full = open && (count(open) >= BUNDLE_MAX_VIEWS || open.bytes + bytes > BUNDLE_MAX_BYTES) ? open : null;
  const sending = full ? send(env, full) : Promise.resolve();
  if (open) {
    gather(open, item);
    open.bytes += bytes;
    return sending;
  }
  const bundle: OpenBundle = { views: [], goals: [], bytes, sent: false };
  gather(bundle, item);
  open = bundle;
  const windowMs = bundleWindowMs(env);
  if (windowMs > 0) await new Promise((resolve) => setTimeout(resolve, windowMs));
  await Promise.all([sending, send(env, bundle)]);
}

/** Counts a page view after the answer; a failed send is logged, never the visitor's problem. */
export function countPageView(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, view: PageView): void {
  ctx.waitUntil(
    pageViewMessage(env, view)
      .then((message) => enqueue(env, { view: message }))
      .catch((err) => console.error("Analytics enqueue failed", err)),
  );
}

/** Counts a goal reached (`POST /api/goals`), gathered with the isolate's page views. */
export function countGoal(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  goal: Omit<GoalEvent, "id" | "timestamp">,
  now = Date.now(),
): void {
  ctx.waitUntil(
    enqueue(env, { goal: { id: crypto.randomUUID(), ...goal, timestamp: now } }).catch((err) =>
      console.error("Analytics enqueue failed", err),
    ),
  );
}
