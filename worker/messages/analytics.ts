/**
 * @module The analytics queue's contract: page views, sent by the hot path (delivery/page-view.ts) a few at a time
 * in one message, and counted by the consumer (analytics/consumer.ts).
 */
/** The queue's name in wrangler.toml. */
export const ANALYTICS_QUEUE_NAME = "dynamic-content-analytics";
/** Where its failed batches wait; the Worker consumes it only while an operator replays it (docs/decisions.md). */
export const ANALYTICS_DEAD_LETTER_QUEUE_NAME = "dynamic-content-analytics-dlq";

/** One content request. */
export interface PageViewEvent {
  /** Unique per request: a view redelivered, alone or in another message, is recognised by it. */
  id: string;
  userId: string;
  /** The page URL without its hash. */
  url: string;
  /** The mapping that matched, if any. */
  mappingId: number | null;
  /** Whether HTML was delivered. */
  delivered: boolean;
  timestamp: number;
  userAgent: string | null;
  referer: string | null;
  /**
   * Who viewed, as a salted hash of the day and the visitor's address (delivery/page-view.ts `visitorId`); null
   * when the address is not known (local development), and absent in messages sent before visitors were named.
   */
  visitor?: string | null;
  /**
   * Only on a view that showed an experiment's variant (delivery/variant.ts): the visitor's random id (the
   * snippet's `vid`, the edge's cookie), the experiment's run and the variant's key.
   */
  vid?: string;
  experiment?: string;
  variant?: string;
  /**
   * Only on a view held out of an audience mapping (docs/audiences.md, "Holdout"), which delivered the fallback
   * (`mappingId`): the audience mapping whose holdout `experiment` is.
   */
  exposedMapping?: number;
  /**
   * Only on a view with an exposure: the visitor's device, referrer type and country, four characters
   * (contract/segments.ts `encodeSegment`), for the results by segment.
   */
  seg?: string;
}

/** A visitor reached one of the customer's goals (`POST /api/goals`): counted for the experiments they saw. */
export interface GoalEvent {
  id: string;
  userId: string;
  vid: string;
  goal: string;
  timestamp: number;
  /** Who sent it, named as a page view's `visitor` is; absent in messages sent before goals named it. */
  visitor?: string | null;
}

/**
 * A mapping's selector named no element on a page it was delivered to (docs/placement.md, "Selector health"): the
 * edge knows once the page has streamed, after its view was counted.
 */
export interface PlacementMissEvent {
  userId: string;
  mappingId: number;
  timestamp: number;
}

/** The page views an isolate gathered (delivery/page-view.ts): one queue message, billed as one. */
export interface PageViewBundle {
  views: PageViewEvent[];
  /** The goals reached, gathered with the views (absent when none). */
  goals?: GoalEvent[];
  /** The selectors that missed, gathered with the views (absent when none). */
  misses?: PlacementMissEvent[];
}

/** A message on the queue: a bundle, or one view alone (as every message was before bundles). */
export type AnalyticsMessage = PageViewBundle | PageViewEvent;

/** The views a message carries. */
export const viewsOf = (message: AnalyticsMessage): PageViewEvent[] => ("views" in message ? message.views : [message]);

/** The goals a message carries. */
export const goalsOf = (message: AnalyticsMessage): GoalEvent[] => ("views" in message ? (message.goals ?? []) : []);

/** The placement misses a message carries. */
export const missesOf = (message: AnalyticsMessage): PlacementMissEvent[] =>
  "views" in message ? (message.misses ?? []) : [];

/**
 * Page views summed, as the minute cron hands them to a reducer (analytics/reducer.ts) and a reducer settles them
 * into the counters (analytics/fold.ts counts one as `n` views): `n` views of one customer, URL, day, mapping and
 * crawler flag, `delivered` of them delivered, the last at `timestamp`.
 */
export interface HeldSum {
  userId: string;
  /** The normalised URL. */
  url: string;
  day: string;
  mappingId: number | null;
  crawler: 0 | 1;
  n: number;
  delivered: number;
  timestamp: number;
  /**
   * Of the customer's views settled with this sum, how many (and how many delivered) spent no quota because their
   * visitor had spent their day's budget (analytics/reducer-visitors.ts): carried on one of a customer's sums when
   * they settle, absent (0) otherwise.
   */
  unbilled?: number;
  unbilledDelivered?: number;
  /**
   * The row its views count on, when sure at handoff (analytics/handoff.ts `HELD_SUMS`), so that a reader can add the
   * sum to that row (models/held-counts.ts): 1, the URL's existing `url_stats` row (a mapping of the customer's at the
   * URL, or counts that day: analytics/count.ts `KNOWN`); 2, "other pages" (the day's new URLs were used up); absent
   * (0) otherwise, and in sums handed off before it was asked.
   */
  known?: 0 | 1 | 2;
}

/**
 * One visitor's views of a metered customer in one day of a handoff (analytics/fold.ts), not a known crawler's: `n`
 * views, `delivered` of them delivered, and where the delivered ones stand among the visitor's views of the handoff
 * (1 = first, in time order), as far as a day's budget reaches. What the reducer needs to bill them exactly.
 */
export interface VisitorTally {
  userId: string;
  day: string;
  visitor: string;
  n: number;
  delivered: number;
  deliveredAt: number[];
}

/** What a customer may still spend of their plan's limits, as the minute cron's fold knew it (null: no limit). */
export interface Headroom {
  requests: number | null;
  deliveries: number | null;
}

/** One part of a handoff to a reducer (analytics/fold.ts `handOff`). */
export interface HandoffPart {
  sums: HeldSum[];
  /** The metered customers' visitors (their views spend a quota), for the per-visitor budget. */
  tallies: VisitorTally[];
  /** When the billing period of each customer with sums ends (epoch ms). */
  periodEnds: Record<string, number>;
  /** The metered customers of the handoff whose limit is not reached: settled once their held views could reach it. */
  headroom: Record<string, Headroom>;
  /**
   * Each metered customer's per-visitor daily budget (analytics/reducer-visitors.ts `visitorDailyQuota`); absent in
   * parts sent before it was (the reducer then bills `VISITOR_DAILY_QUOTA`).
   */
  visitorQuotas?: Record<string, number>;
}
