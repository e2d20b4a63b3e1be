/**
 * @module Isolating what fails: when counting a range fails for reasons of some of its customers (P-1: rows that make
 * a statement fail), their events are set aside (quarantine.ts) and everyone else's are counted at once. The
 * customers are found by halving, each group's counting tried alone and rolled back.
 */
import type { Env } from "../env";
import { loadBatchCustomers } from "./batch-customers";
import { countingStatements, CUSTOMERS_OF_RANGE, FoldFailure, type FoldStage, type PendingRange } from "./count";
import { setAside } from "./quarantine";
import { reducerShardsOf } from "./reducer-shards";

/**
 * A statement that always fails (an integer overflow), last in a probe's batch so that D1 rolls back everything the
 * probe counted: a probe only tells whether its customers' part of a range folds.
 */
const PROBE_ROLLBACK = `SELECT abs(-9223372036854775808)`;
const isProbeRollback = (err: unknown) => err instanceof Error && /integer overflow/i.test(err.message);

/**
 * Whether a failure is one SQLite found in the data (a statement's error, a constraint, malformed JSON), which a
 * customer's rows can cause, rather than D1 being unreachable or busy: only the former is isolated.
 */
const isDataError = (err: unknown) =>
  err instanceof Error && /SQLITE_(ERROR|CONSTRAINT|TOOBIG|MISMATCH|RANGE)|malformed JSON/i.test(err.message);

/**
 * Whether the customers' part of the range folds (null), or why not: their loading (when that is what failed) and
 * the counting statements restricted to them, rolled back. The reducers are not involved: their failures are not a
 * customer's.
 */
async function probe(
  env: Env,
  range: PendingRange,
  userIds: string[],
  { stage, now, of }: { stage: FoldStage; now: Date; of: { reduced: boolean; experiments: boolean; caps: string } },
): Promise<string | null> {
  const d1 = env.DB;
  try {
    if (stage === "load") await loadBatchCustomers(env, userIds, now);
    await d1.batch([...countingStatements(d1, range, JSON.stringify(userIds), of), d1.prepare(PROBE_ROLLBACK)]);
  } catch (err) {
    if (isProbeRollback(err)) return null;
    if (isDataError(err)) return (err as Error).message;
    throw err;
  }
  throw new Error("A fold probe was not rolled back");
}

/** Probes one isolation may spend: about 2 × log2(customers) per customer who fails, so a few of them in a large range. */
const MAX_PROBES = 40;

/**
 * The customers whose part of the range fails alone, with why, found by halving: a group that folds is cleared, one
 * that fails is split. Empty when nothing customer-specific fails: when no customers' part folds either (a probe of
 * none, D1 down or busy), when every customer's part fails (a table that takes no writes fails them all alike), or
 * when the probes are spent. So a range of one customer is never isolated: it waits, and the next minute's range
 * holds other customers' rows too.
 */
async function failingCustomers(
  env: Env,
  range: PendingRange,
  stage: FoldStage,
  now: Date,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let customers = 0;
  try {
    const { results } = await env.DB.prepare(CUSTOMERS_OF_RANGE)
      .bind(range.from, range.to)
      .all<{ userId: string; experiments: number; reduced: number }>();
    customers = results.length;
    // A probe is rolled back, so the experiments' caps need not be the customers' own: the widest does.
    const of = { reduced: results.some((r) => r.reduced), experiments: results.some((r) => r.experiments), caps: "{}" };
    // Counting that has nothing of customers to count failed for reasons of its own (deleting the range, say).
    if (stage === "count" && !of.reduced && !of.experiments) return new Map();
    const options = { stage, now, of };
    if ((await probe(env, range, [], options)) !== null) return new Map();
    const groups = [results.map((r) => r.userId)];
    let probes = 1;
    while (groups.length > 0) {
      const group = groups.shift()!;
      if (++probes > MAX_PROBES) return new Map();
      const failure = await probe(env, range, group, options);
      if (failure === null) continue;
      if (group.length === 1) {
        found.set(group[0]!, failure);
        continue;
      }
      const half = Math.ceil(group.length / 2);
      groups.push(group.slice(0, half), group.slice(half));
    }
  } catch {
    return new Map();
  }
  return found.size < customers ? found : new Map();
}

/**
 * Runs `attempt` (a fold of the range, or a count of a reducer's settled sums); when it fails for reasons of some of
 * the range's customers (P-1: rows that make a statement fail), sets their events aside (quarantine.ts) and runs it
 * again for everyone else at once; answers the views counted. A failure to hand off is the reducers' and is thrown
 * as it is, as is one that no customer's part explains. A range whose handoff was begun by an earlier fold
 * (`handoff`) is isolated only when this fold handed it off whole (its views are then held: set aside, they are
 * only the experiments' to count), or when it failed before that with no handoff begun. A customer of a shard that
 * failed its handoff in this run (`blocked`) is never set aside: their views stay in the range, owed in the same
 * parts (handoff.ts).
 */
export async function isolatingFailures(
  env: Env,
  range: PendingRange,
  now: Date,
  attempt: () => Promise<number>,
  { handoff, blocked }: { handoff?: string; blocked?: Map<number, string> } = {},
): Promise<number> {
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof FoldFailure) || err.stage === "handoff" || !isDataError(err.cause)) throw err;
    if (err.stage === "load" && handoff !== undefined) throw err;
    const failing = await failingCustomers(env, range, err.stage, now);
    for (const userId of failing.keys())
      if (reducerShardsOf(env, userId).some((shard) => blocked?.has(shard))) failing.delete(userId);
    if (failing.size === 0) throw err;
    const aside = await setAside(env.DB, range, failing, { handed: err.stage === "count", now });
    return (await attempt()) - aside;
  }
}
