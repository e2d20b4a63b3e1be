/**
 * @module The queue consumer. Per batch: its page views (several per message: delivery/page-view.ts) each once,
 * those of websites that are not the customer's dropped (one query for the batch), archived to R2, then taken into
 * D1 to be counted (record.ts: the ledger of ids and one pending row per chunk, in one transaction each); the
 * minute cron folds them into the counters (fold.ts). Anything failing before a chunk is taken leaves it uncounted
 * and retries the whole batch; the ledger keeps a retried view from being counted twice. A batch that fails ten
 * times waits in the dead-letter queue (wrangler.toml); one replayed after the ledger's window counts only its
 * views still inside it, and the others as lost (models/analytics-losses.ts). After a batch, expired ledger rows are
 * purged within a small budget.
 */
import { createDb } from "../db/client";
import type { Env } from "../env";
import { utcDay } from "../lib/days";
import { runIndependentSteps } from "../lib/independent-steps";
import { recordLoss } from "../models/analytics-losses";
import { websitesAmong } from "../models/websites";
import { hostOf } from "#contract/normalize-url";
import { archiveEvents, archiveKey, batchIdOf } from "./archive";
import { recordPlacementMisses } from "../models/placement-health";
import {
  goalsOf,
  missesOf,
  viewsOf,
  type AnalyticsMessage,
  type GoalEvent,
  type PageViewEvent,
} from "../messages/analytics";
import {
  PEND_MAX_VIEWS,
  pendAnalytics,
  toArchivedView,
  toCountedGoal,
  toCountedView,
  type ArchivedView,
} from "./record";
import { countableSince, PURGE_ROWS_PER_BATCH, purgeRawWindow } from "./retention";
import { recordFirstSightings } from "./snippet-sightings";

/** Each view once, even when the queue delivers one twice in a batch, or two messages carry it. */
function uniqueViews(batch: MessageBatch<AnalyticsMessage>): PageViewEvent[] {
  return [...new Map(batch.messages.flatMap((m) => viewsOf(m.body)).map((view) => [view.id, view])).values()];
}

/** Each goal event once, likewise. */
function uniqueGoals(batch: MessageBatch<AnalyticsMessage>): GoalEvent[] {
  return [...new Map(batch.messages.flatMap((m) => goalsOf(m.body)).map((goal) => [goal.id, goal])).values()];
}

function uniquePairs(pairs: { userId: string; host: string }[]) {
  return [...new Map(pairs.map((p) => [`${p.userId} ${p.host}`, p])).values()];
}

/**
 * The views that count: delivered ones, and the others on a website the customer has a mapping on (anyone can send
 * us a customer's id with any URL). Views of unknown or deleted customers are dropped when they are taken.
 */
async function theirViews(env: Env, views: ArchivedView[]): Promise<ArchivedView[]> {
  const theirs = await websitesAmong(
    createDb(env.DB),
    uniquePairs(views.filter((v) => !v.delivered).map((v) => ({ userId: v.userId, host: hostOf(v.normalizedUrl) }))),
  );
  return views.filter((v) => v.delivered || theirs.has(`${v.userId} ${hostOf(v.normalizedUrl)}`));
}

export async function consumeAnalytics(batch: MessageBatch<AnalyticsMessage>, env: Env): Promise<void> {
  let views: ArchivedView[];
  try {
    views = await theirViews(env, uniqueViews(batch).map(toArchivedView));
    if (views.length > 0) {
      const archive = archiveKey(await batchIdOf(views.map((v) => v.id)), Math.min(...views.map((v) => v.timestamp)));
      await archiveEvents(env, archive, views);
    }
    // Goals wait beside the views, taken and deduplicated alike (the /api/goals route checked them already).
    const now = Date.now();
    const since = countableSince(env, now);
    const taken = [...views.map(toCountedView), ...uniqueGoals(batch).map(toCountedGoal)];
    const counted = taken.filter((item) => item.timestamp >= since);
    for (let i = 0; i < counted.length; i += PEND_MAX_VIEWS) {
      const chunk = counted.slice(i, i + PEND_MAX_VIEWS);
      await pendAnalytics(env.DB, await batchIdOf(chunk.map((v) => v.id)), chunk);
    }
    const tooOld = taken.length - counted.length;
    if (tooOld > 0) {
      console.warn(`${tooOld} page views and goals older than the ledger's window were not counted (kept in R2)`);
      await recordLoss(createDb(env.DB), utcDay(now), "too-old", tooOld);
    }
    batch.ackAll();
  } catch (err) {
    console.error("Analytics batch failed; retrying", err);
    batch.retryAll({ delaySeconds: 5 });
    return;
  }
  // Upkeep that must keep pace with traffic; a failure here is retried by the next batch and the daily cron.
  await runIndependentSteps([
    // Getting started's `snippet` step: seconds after the view, not at the minute's fold (a failure: the next view's).
    ["Recording first sightings of the snippet", () => recordFirstSightings(createDb(env.DB), views)],
    ["Purging the ledger past its window", () => purgeRawWindow(env, new Date(), PURGE_ROWS_PER_BATCH)],
    // Selector health: rare, and a warning, so written here at once rather than through the ledger and the fold.
    [
      "Recording placement misses",
      () =>
        recordPlacementMisses(
          createDb(env.DB),
          batch.messages.flatMap((m) => missesOf(m.body)),
        ),
    ],
  ]);
}
