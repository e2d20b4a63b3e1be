/**
 * @module The fold: the minute cron's counting of what is pending (record.ts), in ranges, oldest first. A range's
 * page views are handed to the reducers (handoff.ts), which hold them summed and settle them back as pending rows of
 * sums (reduced = 1), when the counters are read, a limit could be reached, the period ends or a day has passed;
 * the range's settled sums and experiments' events are counted (count.ts) in the transaction that deletes the range.
 * So a customer's counter rows are written about once a day, or once per look at their dashboards. A fold that fails
 * leaves its range pending for the next minute; two folds of one range count it once, since the second finds its
 * rows deleted. So counters and limits trail page views by about a minute (the dashboards say so).
 */
import type { Env } from "../env";
import { OLDEST_PENDING } from "../models/analytics-health";
import { countRange, FoldFailure, inStage, loadRange, type PendingRange } from "./count";
import { closingStatements, handOff, unfinishedHandoffs, viewsStillOwed } from "./handoff";
import { isolatingFailures } from "./fold-isolation";
import { releaseDue } from "./quarantine";
import { routedReducers } from "./reducer-layout";
import { reducerShardsOf } from "./reducer-shards";

/**
 * Views one fold transaction counts at most: a minute at 10,000 million views a month (231,000), so that a counter
 * row touched in a minute is written once, not once per part of it. Such a fold took 9 to 13 s in Miniflare (about
 * 40 µs a view, most of it sorting the views by customer, URL and mapping), each statement far within D1's 30 s; a
 * smaller minute folds in proportion.
 */
export const FOLD_MAX_VIEWS = 250_000;
/** How long one cron run keeps folding before it leaves the rest to the next minute. */
const FOLD_BUDGET_MS = 25_000;

/**
 * The oldest pending rows, in ranges one fold transaction each. The rows of a handoff still owed to a reducer
 * (`foldRange`) are left out, and no range spans them: they are its handoff's to fold.
 */
async function pendingRanges(d1: D1Database): Promise<PendingRange[]> {
  const [owedHandoffs, pending] = await d1.batch<{ from: number; seq: number; views: number }>([
    d1.prepare(`SELECT from_seq AS "from" FROM analytics_handoffs ORDER BY from_seq`),
    d1.prepare(
      `SELECT seq, views FROM analytics_pending p
      WHERE NOT EXISTS (SELECT 1 FROM analytics_handoffs h WHERE p.seq BETWEEN h.from_seq AND h.to_seq)
      ORDER BY seq LIMIT 5000`,
    ),
  ]);
  const owed = owedHandoffs!.results.map((h) => h.from);
  const ranges: PendingRange[] = [];
  for (const row of pending!.results) {
    const last = ranges.at(-1);
    const spansOwed = last !== undefined && owed.some((from) => from > last.to && from < row.seq);
    if (last && !spansOwed && last.views + row.views <= FOLD_MAX_VIEWS) {
      last.to = row.seq;
      last.views += row.views;
    } else {
      ranges.push({ from: row.seq, to: row.seq, views: row.views });
    }
  }
  return ranges;
}

/**
 * Folds one range of pending rows: hands its page views to the reducers, counts the rest and deletes it; answers
 * the views it counted. `handoff` is the customers of a handoff of this range that did not finish
 * (`analytics_handoffs`). When the handoff fails for some shards (or they are `blocked`, having failed earlier in
 * the run), everything else is counted and the page views of those shards' customers stay, owed to their reducers
 * (handoff.ts): the next run hands them off again first. Fails with a `FoldFailure`.
 */
export async function foldRange(
  env: Env,
  range: PendingRange,
  now: Date,
  handoff?: string,
  blocked = new Map<number, string>(),
): Promise<number> {
  const loaded = await loadRange(env, range, now);
  const handedOff = await inStage("handoff", () => handOff(env, range, loaded, handoff, blocked));
  const closed = await countRange(env, range, loaded, closingStatements(env.DB, range, handedOff));
  const owed = viewsStillOwed(handedOff, closed);
  if (handedOff.owed.length > 0) {
    await rangeStuck(env.DB, range, new Error([...new Set(handedOff.failed.values())].join("; ")), now);
  }
  return range.views - owed;
}

/** `foldRange`, with the customers whose rows make it fail set aside (fold-isolation.ts). */
export const foldRangeIsolating = (
  env: Env,
  range: PendingRange,
  now: Date,
  handoff?: string,
  blocked = new Map<number, string>(),
) => isolatingFailures(env, range, now, () => foldRange(env, range, now, handoff, blocked), { handoff, blocked });

/** Settled rows (reducers' sums) after `seq`, one range each: foldable while an earlier range is stuck. */
async function settledRowsAfter(d1: D1Database, seq: number): Promise<PendingRange[]> {
  const { results } = await d1
    .prepare(`SELECT seq, views FROM analytics_pending WHERE seq > ?1 AND reduced = 1 ORDER BY seq LIMIT 1000`)
    .bind(seq)
    .all<{ seq: number; views: number }>();
  return results.map((row) => ({ from: row.seq, to: row.seq, views: row.views }));
}

/** How old the oldest pending view may grow before the log says so. */
export const BACKLOG_WARN_MS = 10 * 60_000;

/**
 * A range that could not be folded: its handoff (if begun) counts the failure and keeps why, for admins; the log
 * says so on the first failure, every tenth, and whenever the oldest pending view is older than `BACKLOG_WARN_MS`.
 */
async function rangeStuck(d1: D1Database, range: PendingRange, err: unknown, now: Date) {
  const message = err instanceof Error ? err.message : String(err);
  const row = await d1
    .prepare(
      `UPDATE analytics_handoffs SET failures = failures + 1, last_error = ?2 WHERE from_seq = ?1 RETURNING failures`,
    )
    .bind(range.from, message.slice(0, 1000))
    .first<{ failures: number }>()
    .catch(() => null);
  const oldest = await d1
    .prepare(OLDEST_PENDING)
    .first<{ oldest: number | null }>()
    .catch(() => null);
  const age = oldest?.oldest ? now.getTime() - oldest.oldest : 0;
  const failures = row?.failures ?? 1;
  if (failures === 1 || failures % 10 === 0 || age >= BACKLOG_WARN_MS) {
    console.warn(
      `Analytics: rows ${range.from} to ${range.to} failed to fold (${failures} times): ${message}; ` +
        `the oldest pending view is ${Math.round(age / 60_000)} minutes old`,
    );
  }
}

/**
 * Folds what is pending, oldest first, range by range, until nothing is or the run's budget is spent (the next
 * minute goes on); answers the views folded. First a change of the reducers' shard count is carried out when it can
 * be (reducer-layout.ts), then the events quarantine.ts set aside that are due again.
 *
 * Handoffs still owed to reducers come first, in order; one owed only to shards that failed earlier in the run
 * waits, since a later handoff's positions would pass its own in the reducers (reducer.ts `positionOf`) and its
 * parts would then be ignored. A reducer that fails holds back only its own customers' page views (`foldRange`).
 *
 * A range that fails otherwise (after its customers' part is isolated: `foldRangeIsolating`), D1 unreachable say,
 * stops the consumers' rows after it. The reducers' settled rows after it hold no handoff and are folded all the
 * same, so customers whose counters are read or whose limits near keep being counted. The failure is then thrown,
 * for the cron's log, once the rest is done.
 */
export async function foldPendingAnalytics(configured: Env, now = new Date()): Promise<number> {
  const started = Date.now();
  // Routed by the shard count the held sums were routed by, until a change of it is complete (reducer-layout.ts).
  const env = await routedReducers(configured);
  const d1 = env.DB;
  const overBudget = () => Date.now() - started >= FOLD_BUDGET_MS;
  await releaseDue(d1, now);
  let folded = 0;
  let stuck: { range: PendingRange; err: unknown } | null = null;
  // The shards whose handoff failed in this run, with why: none is asked again before the next run.
  const blocked = new Map<number, string>();
  const attempt = async (range: PendingRange, handoff?: string) => {
    try {
      folded += await foldRangeIsolating(env, range, now, handoff, blocked);
    } catch (err) {
      stuck = { range, err };
      await rangeStuck(d1, range, err, now);
    }
  };
  // Skipped only when no shard its customers' views could go to takes parts this run: a shard that did would take
  // later ranges' positions first, and then ignore this range's parts as ones it has.
  const owedOnlyToBlocked = (customers: string) => {
    const listed = JSON.parse(customers) as string[];
    return (
      listed.length > 0 && listed.every((userId) => reducerShardsOf(env, userId).every((shard) => blocked.has(shard)))
    );
  };
  for (const { range, customers } of await unfinishedHandoffs(d1)) {
    if (owedOnlyToBlocked(customers)) continue;
    await attempt(range, customers);
    if (stuck || overBudget()) break;
  }
  while (!stuck && !overBudget()) {
    const ranges = await pendingRanges(d1);
    if (ranges.length === 0) break;
    for (const range of ranges) {
      await attempt(range);
      if (stuck || overBudget()) break;
    }
  }
  const halted = stuck as { range: PendingRange; err: unknown } | null;
  if (halted) {
    for (const range of await settledRowsAfter(d1, halted.range.to)) {
      if (overBudget()) break;
      try {
        folded += await foldRangeIsolating(env, range, now);
      } catch {
        // Left pending for the next minute, like the range that is stuck.
      }
    }
    throw halted.err instanceof FoldFailure ? halted.err.cause : halted.err;
  }
  return folded;
}
