/**
 * @module Takes a consumed batch's page views into D1 with one `batch()` (one transaction): the views not counted
 * before go into one `analytics_pending` row, and their ids into the ledger (`analytics_ledger`, one row per
 * `LEDGER_SECONDS` of their timestamps). The minute cron folds pending rows into the counters (fold.ts); so every
 * counter row is written once a minute, not once per batch, and a view is counted exactly once: a redelivered view
 * finds its id in the ledger, and a failed batch leaves neither row behind.
 *
 * Which views are fresh is worked out once per batch, in the statement that writes the pending row; the ledger rows
 * are then read from that row. The views travel as one JSON parameter, so a statement binds two values whatever the
 * batch's size.
 */
import { isCrawler } from "../lib/crawlers";
import { normalizeUrl } from "#contract/normalize-url";
import { utcDay } from "../lib/days";
import type { GoalEvent, PageViewEvent } from "../messages/analytics";

/** A view as it waits to be counted: its normalised URL, UTC day and whether a known crawler asked. */
export interface CountedView extends Pick<PageViewEvent, "id" | "userId" | "mappingId" | "delivered" | "timestamp"> {
  /** The normalised URL. */
  url: string;
  day: string;
  crawler: boolean;
  visitor: string | null;
  /** On a view that showed an experiment's variant (its exposure, counted by experiment-fold.ts). */
  vid?: string;
  experiment?: string;
  variant?: string;
  /** On a view held out of an audience mapping: that mapping (the exposure's), not `mappingId` (the fallback). */
  exposedMapping?: number;
  /** On a view with an exposure: the visitor's segment code (contract/segments.ts). */
  seg?: string;
}

/** A goal reached, as it waits beside the views: `goal` tells it apart from them. */
export interface CountedGoal extends Pick<GoalEvent, "id" | "userId" | "vid" | "goal" | "timestamp"> {
  day: string;
  /** The address that sent it (experiment-fold.ts holds each to `ADDRESS_DAILY_GOALS`). */
  visitor: string | null;
}

export const toCountedGoal = (goal: GoalEvent): CountedGoal => ({
  id: goal.id,
  userId: goal.userId,
  vid: goal.vid,
  goal: goal.goal,
  timestamp: goal.timestamp,
  day: utcDay(goal.timestamp),
  visitor: goal.visitor ?? null,
});

/** A view as the R2 archive keeps it: as sent, with what counting derived from it. */
export interface ArchivedView extends PageViewEvent {
  normalizedUrl: string;
  day: string;
  crawler: boolean;
}

export function toArchivedView(view: PageViewEvent): ArchivedView {
  return {
    ...view,
    normalizedUrl: normalizeUrl(view.url),
    day: utcDay(view.timestamp),
    crawler: isCrawler(view.userAgent),
  };
}

export const toCountedView = (view: ArchivedView): CountedView => ({
  id: view.id,
  userId: view.userId,
  url: view.normalizedUrl,
  mappingId: view.mappingId,
  delivered: view.delivered,
  timestamp: view.timestamp,
  day: view.day,
  crawler: view.crawler,
  visitor: view.visitor ?? null,
  ...(view.experiment && view.variant && view.vid
    ? { vid: view.vid, experiment: view.experiment, variant: view.variant }
    : {}),
  ...(view.exposedMapping === undefined ? {} : { exposedMapping: view.exposedMapping }),
  ...(view.seg === undefined ? {} : { seg: view.seg }),
});

/**
 * The span of one ledger row: a batch's views (an isolate's 5 s and the relay's 2.5 s, delivery/view-bundle.ts)
 * mostly fall in one or two such spans, so a batch writes one or two ledger rows, not one per second; a lookup reads
 * the ids of the spans its views fall in.
 */
export const LEDGER_SECONDS = 10;

/**
 * The views of existing customers whose id is not in the ledger rows of their span (keyed by its first second).
 * Rows written one per second, before spans, are found under the view's own second while the ledger keeps them.
 */
const PEND = `WITH incoming AS (
    SELECT value AS view, value ->> 'id' AS id, value ->> 'userId' AS user_id, (value ->> 'timestamp') / 1000 AS second
    FROM json_each(?1)
  ),
  fresh AS (
    SELECT * FROM incoming
    WHERE EXISTS (SELECT 1 FROM users WHERE users.id = incoming.user_id)
      AND incoming.id NOT IN (
        SELECT counted.value FROM analytics_ledger ledger, json_each(ledger.message_ids) counted
        WHERE ledger.second IN (
          SELECT second / ${LEDGER_SECONDS} * ${LEDGER_SECONDS} FROM incoming UNION SELECT second FROM incoming))
  )
  INSERT INTO analytics_pending (batch, views, events)
  SELECT ?2, count(*), json_group_array(json(view)) FROM fresh HAVING count(*) > 0
  RETURNING views`;

/** The ledger rows of the pending row just written (none when nothing was fresh). */
const LEDGER = `INSERT INTO analytics_ledger (second, batch, message_ids)
  SELECT (v.value ->> 'timestamp') / ${LEDGER_SECONDS * 1000} * ${LEDGER_SECONDS}, ?1, json_group_array(v.value ->> 'id')
  FROM analytics_pending p, json_each(p.events) v
  WHERE changes() > 0 AND p.seq = (SELECT max(seq) FROM analytics_pending) AND p.batch = ?1
  GROUP BY 1`;

/**
 * Takes the views (at most `PEND_MAX_VIEWS`, whose JSON stays far below D1's 2 MB per value) to be counted;
 * answers how many were fresh.
 */
export async function pendAnalytics(
  d1: D1Database,
  batchId: string,
  views: readonly (CountedView | CountedGoal)[],
): Promise<number> {
  if (views.length === 0) return 0;
  const json = JSON.stringify(views);
  const [pended] = await d1.batch<{ views: number }>([
    d1.prepare(PEND).bind(json, batchId),
    d1.prepare(LEDGER).bind(batchId),
  ]);
  return pended!.results[0]?.views ?? 0;
}

/** Views per `pendAnalytics` call: a counted view's JSON is at most about 2.5 KB (URL capped at 2,048). */
export const PEND_MAX_VIEWS = 500;
