/**
 * @module One analytics message being gathered: page views and goals up to the message's caps. Gathered first by
 * the isolate that served the views (page-view.ts), then, when the isolate's bundle is small, with other isolates'
 * by the relay (page-view-relay.ts); the bench models both with this class (scripts/perf/bench/queue-messages.mts).
 */
import type { Env } from "../env";
import type { GoalEvent, PageViewBundle, PageViewEvent, PlacementMissEvent } from "../messages/analytics";

/** How long an isolate gathers a bundle by default (PAGE_VIEW_BUNDLE_MS overrides it). */
export const BUNDLE_WINDOW_MS = 5_000;

/** The window PAGE_VIEW_BUNDLE_MS sets: at most 10 s; 0 sends each view at once, without the relay. */
export function bundleWindowMs(env: Pick<Env, "PAGE_VIEW_BUNDLE_MS">): number {
  const ms = Number(env.PAGE_VIEW_BUNDLE_MS ?? BUNDLE_WINDOW_MS);
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, 10_000) : BUNDLE_WINDOW_MS;
}

/** How long the relay gathers isolates' bundles into a message: half an isolate's window (2.5 s by default). */
export const relayWindowMs = (env: Pick<Env, "PAGE_VIEW_BUNDLE_MS">) => bundleWindowMs(env) / 2;

/** A message's size: Cloudflare bills every 64 KB of a message as another operation; views are at most ~5 KB. */
export const BUNDLE_MAX_BYTES = 48 * 1024;
export const BUNDLE_MAX_VIEWS = 100;

const utf8 = new TextEncoder();
/** What an item adds to a message: its JSON's UTF-8 bytes, as the queue counts them. */
export const itemBytes = (item: PageViewEvent | GoalEvent | PlacementMissEvent) =>
  utf8.encode(JSON.stringify(item)).byteLength;

export class ViewBundle {
  readonly views: PageViewEvent[] = [];
  readonly goals: GoalEvent[] = [];
  readonly misses: PlacementMissEvent[] = [];
  bytes = 0;

  /** Views, goals and misses: what `BUNDLE_MAX_VIEWS` caps. */
  get size(): number {
    return this.views.length + this.goals.length + this.misses.length;
  }

  /** Whether `items` more of `bytes` in all still fit (an empty bundle takes anything: an item is far below). */
  fits(items: number, bytes: number): boolean {
    return this.size === 0 || (this.size + items <= BUNDLE_MAX_VIEWS && this.bytes + bytes <= BUNDLE_MAX_BYTES);
  }

  addView(view: PageViewEvent, bytes = itemBytes(view)): void {
    this.views.push(view);
    this.bytes += bytes;
  }

  addGoal(goal: GoalEvent, bytes = itemBytes(goal)): void {
    this.goals.push(goal);
    this.bytes += bytes;
  }

  addMiss(miss: PlacementMissEvent, bytes = itemBytes(miss)): void {
    this.misses.push(miss);
    this.bytes += bytes;
  }

  /** Another bundle's items, counted at `bytes`. */
  addAll(other: PageViewBundle, bytes: number): void {
    this.views.push(...other.views);
    this.goals.push(...(other.goals ?? []));
    this.misses.push(...(other.misses ?? []));
    this.bytes += bytes;
  }

  /**
   * At most half a message: two such bundles share one, so sending it through the relay (one Durable Object request,
   * a tenth of a message's three queue operations) saves more than it costs.
   */
  get small(): boolean {
    return this.size * 2 <= BUNDLE_MAX_VIEWS && this.bytes * 2 <= BUNDLE_MAX_BYTES;
  }

  /** The queue message. */
  get message(): PageViewBundle {
    return {
      views: this.views,
      ...(this.goals.length > 0 && { goals: this.goals }),
      ...(this.misses.length > 0 && { misses: this.misses }),
    };
  }
}

/** A received bundle's items and bytes, as `fits` and `addAll` take them. */
export function measure(bundle: PageViewBundle): { items: number; bytes: number } {
  const items = [...bundle.views, ...(bundle.goals ?? []), ...(bundle.misses ?? [])];
  let bytes = 0;
  for (const item of items) bytes += itemBytes(item);
  return { items: items.length, bytes };
}
