/**
 * @module A page view, counted the same whichever path served it (the content endpoint for the snippet, the edge
 * proxy): an analytics event, sent after the answer in `waitUntil`, gathered with the isolate's other views of the
 * next moments into one queue message (a queue bills each message three times, whatever it holds), and when they are
 * few, with other isolates' by the relay (page-view-relay.ts). The consumer counts it only on the customer's own
 * websites. It names the visitor by a salted hash of their IP address (or IPv6 /64) that changes every day: enough
 * to hold one visitor to a share of a customer's quota that day (docs/analytics.md), never an address, and nothing
 * that follows a person from one day to the next.
 */
import type { GoalEvent, PageViewEvent, PlacementMissEvent } from "../messages/analytics";
import { URL_MAX_LENGTH } from "#contract/input-caps";
import { utcDay } from "../lib/days";
import type { Env } from "../env";
import { createDb } from "../db/client";
import { recordLoss } from "../models/analytics-losses";
import { USER_AGENT_MAX_LENGTH } from "../http/client-info";
import { sha256Base64Url } from "../lib/crypto";
import type { DeliveredMapping } from "./store";
import { pickRelay } from "./page-view-relay";
import type { Exposure } from "./variant";
import { bundleWindowMs, itemBytes, ViewBundle } from "./view-bundle";

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
    ...(exposure?.mappingId === undefined ? {} : { exposedMapping: exposure.mappingId }),
    ...(exposure?.segment === undefined ? {} : { seg: exposure.segment }),
  };
}

/**
 * The isolate's bundle not sent yet. The request whose view opens a bundle sends it once the window has passed, or
 * the request that finds it full sends it at once; the views of other requests that joined it go with it, so no
 * request waits on another's promise. A small bundle goes through the relay (page-view-relay.ts), which shares a
 * message among isolates; a full one, or one the relay could not take, straight to the queue. A failed send is
 * logged and its items recorded as lost (models/analytics-losses.ts): the visitor has their answer already.
 */
let open: { bundle: ViewBundle; sent: boolean } | null = null;

async function send(env: Env, gathering: { bundle: ViewBundle; sent: boolean }): Promise<void> {
  if (gathering.sent) return;
  gathering.sent = true;
  if (open === gathering) open = null;
  const { bundle } = gathering;
  if (bundle.small && bundleWindowMs(env) > 0) {
    try {
      if (await pickRelay(env).relay(bundle.message)) return;
      console.warn(`The page view relay did not send ${bundle.size} items; sending them to the queue`);
    } catch (err) {
      console.warn(`The page view relay did not take ${bundle.size} items; sending them to the queue`, err);
    }
  }
  try {
    await env.ANALYTICS_QUEUE.send(bundle.message);
  } catch (err) {
    console.error(
      `Analytics enqueue of ${bundle.views.length} page views and ${bundle.goals.length} goals failed`,
      err,
    );
    await recordLoss(createDb(env.DB), utcDay(Date.now()), "enqueue", bundle.size).catch((lossErr) =>
      console.error("The lost page views could not be recorded", lossErr),
    );
  }
}

type Gathered = { view: PageViewEvent } | { goal: GoalEvent } | { miss: PlacementMissEvent };

/** Adds a view, goal or miss to the isolate's bundle; answers what the caller's `waitUntil` must wait for. */
async function enqueue(env: Env, item: Gathered): Promise<void> {
  const bytes = itemBytes("view" in item ? item.view : "goal" in item ? item.goal : item.miss);
  const full = open && !open.bundle.fits(1, bytes) ? open : null;
  const sending = full ? send(env, full) : Promise.resolve();
  const joined = open !== null;
  const gathering = open ?? { bundle: new ViewBundle(), sent: false };
  if ("view" in item) gathering.bundle.addView(item.view, bytes);
  else if ("goal" in item) gathering.bundle.addGoal(item.goal, bytes);
  else gathering.bundle.addMiss(item.miss, bytes);
  if (joined) return sending;
  open = gathering;
  const windowMs = bundleWindowMs(env);
  if (windowMs > 0) await new Promise((resolve) => setTimeout(resolve, windowMs));
  await Promise.all([sending, send(env, gathering)]);
}

/** Counts a page view after the answer; a failed send is logged, never the visitor's problem. */
export function countPageView(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, view: PageView): void {
  ctx.waitUntil(
    pageViewMessage(env, view)
      .then((message) => enqueue(env, { view: message }))
      .catch((err) => console.error("Analytics enqueue failed", err)),
  );
}

/**
 * Counts that a mapping's selector named no element on a page it was delivered to, gathered with the isolate's page
 * views: no request of its own (docs/placement.md, "Selector health").
 */
export function countPlacementMiss(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  miss: Omit<PlacementMissEvent, "timestamp">,
  now = Date.now(),
): void {
  ctx.waitUntil(
    enqueue(env, { miss: { ...miss, timestamp: now } }).catch((err) => console.error("Analytics enqueue failed", err)),
  );
}

/** Counts a goal reached (`POST /api/goals`), gathered with the isolate's page views. */
export function countGoal(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  { visitor, ...goal }: Omit<GoalEvent, "id" | "timestamp" | "visitor"> & { visitor: string },
  now = Date.now(),
): void {
  ctx.waitUntil(
    visitorId(env, visitor, now)
      .then((named) => enqueue(env, { goal: { id: crypto.randomUUID(), ...goal, timestamp: now, visitor: named } }))
      .catch((err) => console.error("Analytics enqueue failed", err)),
  );
}
