/**
 * @module Handing off: the page views in a range's consumers' rows go to the reducers (reducer.ts), summed per
 * customer, URL, day, mapping and crawler flag, with the metered customers' visitors' tallies. `analytics_handoffs`
 * records each handoff's range and customers before any part is sent, so a cron that stops half way hands the same
 * range to the same customers again, in the same parts, and a reducer ignores the parts it has. A reducer that fails
 * keeps only its customers' views waiting (owed), in their rows, for the next run.
 *
 * A customer without a limit has their pages spread over several reducers (`reducerSlices`, by a hash of the URL),
 * so that a customer with a million pages a day fills no reducer alone; a metered customer's views all go to their
 * own shard, where their visitors and what they may still spend are judged.
 */
import type { Env } from "../env";
import type { HandoffPart, Headroom, HeldSum, VisitorTally } from "../messages/analytics";
import { deliveryLimitReached, isMetered, smallestLimitOf, type DeliveryLimitState } from "../models/limits";
import { UNMAPPED_URLS_PER_DAY } from "../models/url-rows";
import { deleteRange, type LoadedRange, type PendingRange } from "./count";
import { reducerOf, reducerShardOf, reducerShardsOf, reducerSlices, spreadShardOf } from "./reducer-shards";
import { HOLD_MAX_SUMS, sumChunks } from "./sum-runs";
import { VISITOR_DAILY_QUOTA, visitorDailyQuota } from "./reducer-visitors";

const HANDED_OFF = `DELETE FROM analytics_handoffs WHERE from_seq = ?1`;

/**
 * The views of customers ?3 in consumers' rows ?1 to ?2, summed as a reducer holds them, each with the row its views
 * count on when that is sure already (`known`, messages/analytics.ts `HeldSum`): 1, the URL's existing `url_stats`
 * row (a mapping of the customer's at the URL, or counts that day, as count.ts `KNOWN` places them); 2, "other pages"
 * (none of those, and the customer's new URLs of that day are used up: no count that day can give the URL a row
 * unless a mapping is made there); 0 otherwise. Primary-key probes of `url_stats`, `url_daily_usage`,
 * `url_mappings_user_idx` and the customer's day (`usage_counters`, `daily_usage`): rows read, none written.
 */
const HELD_SUMS = `WITH sums AS (
    SELECT v.value ->> 'userId' AS userId, v.value ->> 'url' AS url, v.value ->> 'day' AS day,
      v.value ->> 'mappingId' AS mappingId, coalesce(v.value ->> 'crawler', 0) AS crawler, count(*) AS n,
      sum(v.value ->> 'delivered') AS delivered, max(v.value ->> 'timestamp') AS timestamp
    FROM analytics_pending p, json_each(p.events) v
    WHERE p.seq BETWEEN ?1 AND ?2 AND p.reduced = 0 AND v.value ->> 'goal' IS NULL AND v.value ->> 'handed' IS NULL
      AND (v.value ->> 'userId') IN (SELECT value FROM json_each(?3))
    GROUP BY 1, 2, 3, 4, 5
  )
  SELECT sums.*, CASE
    WHEN EXISTS (SELECT 1 FROM url_stats s
        WHERE s.user_id = sums.userId AND s.url = sums.url AND s.latest_day = sums.day)
      OR EXISTS (SELECT 1 FROM url_daily_usage u
        WHERE u.user_id = sums.userId AND u.url = sums.url AND u.day = sums.day)
      OR EXISTS (SELECT 1 FROM url_mappings m WHERE m.user_id = sums.userId AND m.normalized_url = sums.url)
    THEN EXISTS (SELECT 1 FROM url_stats s WHERE s.user_id = sums.userId AND s.url = sums.url)
    WHEN coalesce(
      (SELECT latest_day_unmapped_urls FROM usage_counters c WHERE c.user_id = sums.userId AND c.latest_day = sums.day),
      (SELECT unmapped_urls FROM daily_usage d WHERE d.user_id = sums.userId AND d.day = sums.day),
      0) >= ${UNMAPPED_URLS_PER_DAY} THEN 2
    ELSE 0 END AS known
  FROM sums ORDER BY 1, 2, 3, 4, 5`;

/**
 * The visitors of metered customers ?3 in consumers' rows ?1 to ?2, as a reducer bills them (`VisitorTally`): the
 * views not by a known crawler, and where each delivered one stands among its visitor's, within a day's budget.
 */
const VISITOR_TALLIES = `WITH seen AS (
    SELECT v.value ->> 'userId' AS user_id, v.value ->> 'day' AS day, v.value ->> 'visitor' AS visitor,
      v.value ->> 'delivered' AS delivered, row_number() OVER (
        PARTITION BY v.value ->> 'userId', v.value ->> 'day', v.value ->> 'visitor'
        ORDER BY v.value ->> 'timestamp', v.value ->> 'id') AS place
    FROM analytics_pending p, json_each(p.events) v
    WHERE p.seq BETWEEN ?1 AND ?2 AND p.reduced = 0 AND v.value ->> 'goal' IS NULL AND v.value ->> 'handed' IS NULL
      AND coalesce(v.value ->> 'crawler', 0) = 0 AND v.value ->> 'visitor' IS NOT NULL
      AND (v.value ->> 'userId') IN (SELECT value FROM json_each(?3))
  )
  SELECT user_id AS userId, day, visitor, count(*) AS n, sum(delivered) AS delivered,
    json_group_array(place) FILTER (WHERE delivered AND place <= ${VISITOR_DAILY_QUOTA}) AS deliveredAt
  FROM seen GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;

/** What the customer may still spend before their limit is reached; none when it is reached or they have none. */
function headroomOf(usage: DeliveryLimitState): Headroom | undefined {
  if (!isMetered(usage) || deliveryLimitReached(usage)) return undefined;
  return {
    requests: usage.requestLimit === null ? null : usage.requestLimit - usage.periodRequests,
    deliveries: usage.dynamicContentLimit === null ? null : usage.dynamicContentLimit - usage.periodDeliveries,
  };
}

/** Each of the customer's visitors' daily budget: a share of their smallest limit (reducer-visitors.ts). */
const visitorQuotaOf = (usage: DeliveryLimitState) => visitorDailyQuota(smallestLimitOf(usage));

/**
 * What the customer may still spend, shared among the shards that may hold their views (`reducerShardsOf`), so that
 * none of them holds less than their share while all of them together reach the limit: their own shard, which holds
 * all they view while metered, most of it; the others, which may still hold views from before they had a limit, the
 * rest in equal parts.
 */
function headroomShares(room: Headroom, shards: number): Headroom[] {
  if (shards === 1) return [room];
  const share = (value: number | null, own: boolean) =>
    value === null ? null : own ? (value * (shards - 1)) / shards : value / shards / (shards - 1);
  return Array.from({ length: shards }, (_, i) => ({
    requests: share(room.requests, i === 0),
    deliveries: share(room.deliveries, i === 0),
  }));
}

/** What a handoff left: the shards that failed, with why, and the customers whose page views they are still owed. */
export interface Handoff {
  failed: Map<number, string>;
  owed: string[];
  /** The handoff's customers that stay listed (its first list, in order, of the failed shards' customers). */
  stillListed: string[];
}

/**
 * Hands the views in the range's consumers' rows to the reducers (reducer.ts), summed per customer, URL, day, mapping
 * and crawler flag, with the metered customers' visitors' tallies and what each may still spend, in parts of at
 * most `HOLD_MAX_SUMS` sums (and about `SUMS_MAX_BYTES`: `sumChunks`) and tallies per reducer. The handoff's
 * customers are written first, so a cron that stops half way hands the same range and customers over again
 * (`handoff`, when redoing one), in the same parts, and a reducer ignores the parts it has. A handoff begun before
 * metered customers were handed off too lists only the others: the rest follow in parts after theirs.
 *
 * A reducer that fails a part fails its shard's share of the handoff, and so does one in `blocked` (shards that
 * failed earlier in this run, to which it adds): the shard is skipped from then on, since a later part of its would
 * pass the failed one's position. The other shards' customers are counted (`closingStatements`). A failure to read
 * the range (D1) fails the whole handoff.
 */
export async function handOff(
  env: Env,
  range: PendingRange,
  { customersOfRange, customers }: LoadedRange,
  handoff: string | undefined,
  blocked: Map<number, string>,
): Promise<Handoff> {
  const failed = new Map<number, string>();
  const d1 = env.DB;
  const existing = customersOfRange.filter((r) => r.consumed && customers.has(r.userId)).map((r) => r.userId);
  let stored = handoff;
  let spreadList: string | null;
  if (stored === undefined) {
    if (existing.length === 0) return { failed, owed: [], stillListed: [] };
    const unmetered = existing.filter((userId) => !isMetered(customers.get(userId)!));
    // A fold of the same range at the same time (two crons) hands over the customers the first one wrote.
    const row = await d1
      .prepare(
        `INSERT INTO analytics_handoffs (from_seq, to_seq, customers, spread) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (from_seq) DO UPDATE SET from_seq = from_seq RETURNING to_seq AS "to", customers, spread`,
      )
      .bind(range.from, range.to, JSON.stringify(existing), reducerSlices(env) > 1 ? JSON.stringify(unmetered) : null)
      .first<{ to: number; customers: string; spread: string | null }>();
    if (row!.to !== range.to) throw new Error(`Rows from ${range.from} are being handed over as another range`);
    stored = row!.customers;
    spreadList = row!.spread;
  } else {
    spreadList =
      (
        await d1
          .prepare(`SELECT spread FROM analytics_handoffs WHERE from_seq = ?1`)
          .bind(range.from)
          .first<{ spread: string | null }>()
      )?.spread ?? null;
  }
  const spread = new Set(spreadList === null ? [] : (JSON.parse(spreadList) as string[]));
  /** The shards each customer's views or tallies went to in this handoff: they are owed them if one fails. */
  const sentTo = new Map<string, Set<number>>();
  const first = JSON.parse(stored) as string[];
  const listed = new Set(first);
  const groups = [first, existing.filter((userId) => !listed.has(userId))].filter((group) => group.length > 0);
  const nextPart = new Map<number, number>();
  for (const group of groups) {
    const metered = group.filter((userId) => customers.has(userId) && isMetered(customers.get(userId)!));
    const [{ results: sums }, { results: tallies }] = await Promise.all([
      d1.prepare(HELD_SUMS).bind(range.from, range.to, JSON.stringify(group)).all<HeldSum>(),
      metered.length === 0
        ? { results: [] }
        : d1
            .prepare(VISITOR_TALLIES)
            .bind(range.from, range.to, JSON.stringify(metered))
            .all<Omit<VisitorTally, "deliveredAt"> & { deliveredAt: string }>(),
    ]);
    const byShard = new Map<number, HandoffPart>();
    /** The shard's part; one that gets views or tallies of the customer (`holds`) is one they are owed by if it fails. */
    const partOf = (userId: string, shard = reducerShardOf(env, userId), holds = true) => {
      let part = byShard.get(shard);
      if (!part) {
        byShard.set(shard, (part = { sums: [], tallies: [], periodEnds: {}, headroom: {}, visitorQuotas: {} }));
      }
      if (holds) {
        let shards = sentTo.get(userId);
        if (!shards) sentTo.set(userId, (shards = new Set()));
        shards.add(shard);
      }
      return part;
    };
    for (const sum of sums) {
      const part = partOf(
        sum.userId,
        spread.has(sum.userId) ? spreadShardOf(env, sum.userId, sum.url) : reducerShardOf(env, sum.userId),
      );
      part.sums.push(sum);
      const ends = customers.get(sum.userId)?.billingPeriodEnd;
      if (ends) part.periodEnds[sum.userId] = ends.getTime();
    }
    for (const { deliveredAt, ...tally } of tallies) {
      partOf(tally.userId).tallies.push({ ...tally, deliveredAt: JSON.parse(deliveredAt) as number[] });
    }
    for (const userId of metered) {
      const usage = customers.get(userId)!;
      const room = headroomOf(usage);
      if (room) {
        const shards = reducerShardsOf(env, userId);
        headroomShares(room, shards.length).forEach((share, i) => {
          partOf(userId, shards[i], i === 0).headroom[userId] = share;
        });
      }
      partOf(userId).visitorQuotas![userId] = visitorQuotaOf(usage);
    }
    await Promise.all(
      [...byShard].map(async ([shard, { sums, tallies, periodEnds, headroom, visitorQuotas }]) => {
        const reducer = reducerOf(env, shard);
        const sumParts = sumChunks(sums);
        const parts = Math.max(1, sumParts.length, Math.ceil(tallies.length / HOLD_MAX_SUMS));
        const offset = nextPart.get(shard) ?? 0;
        nextPart.set(shard, offset + parts);
        const earlier = blocked.get(shard) ?? failed.get(shard);
        if (earlier !== undefined) {
          failed.set(shard, earlier);
          return;
        }
        try {
          for (let part = 0; part < parts; part++) {
            await reducer.hold(shard, range.to, offset + part, {
              sums: sumParts[part] ?? [],
              tallies: tallies.slice(part * HOLD_MAX_SUMS, (part + 1) * HOLD_MAX_SUMS),
              periodEnds,
              headroom,
              visitorQuotas,
            });
          }
        } catch (err) {
          failed.set(shard, `reducer ${shard}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
    );
  }
  for (const [shard, why] of failed) blocked.set(shard, why);
  const onFailedShard = (userId: string) => [...(sentTo.get(userId) ?? [])].some((shard) => failed.has(shard));
  return { failed, owed: existing.filter(onFailedShard), stillListed: first.filter(onFailedShard) };
}

/** A page view of customers ?3 that a reducer is still owed: not a goal, not held already (`handed`). */
const OWED = `v.value ->> 'goal' IS NULL AND v.value ->> 'handed' IS NULL
  AND (v.value ->> 'userId') IN (SELECT value FROM json_each(?3))`;

/**
 * What stays of a range whose handoff failed for some shards: the page views of those shards' customers ?3,
 * unchanged but for their experiment, which this count counted, so that handing them off again makes the same
 * parts. Everything else of the range is counted and goes; the handoff stays, listing only them (`listed`, in the
 * order it first listed them). The last statement answers the views that stay.
 */
function keepOwed(d1: D1Database, range: PendingRange, owed: string[], listed: string[]) {
  return [
    d1
      .prepare(
        `UPDATE analytics_pending SET
          events = (SELECT json_group_array(json(json_remove(v.value, '$.vid', '$.experiment', '$.variant', '$.exposedMapping', '$.seg')))
            FROM json_each(analytics_pending.events) v WHERE ${OWED}),
          views = (SELECT count(*) FROM json_each(analytics_pending.events) v WHERE ${OWED})
        WHERE seq BETWEEN ?1 AND ?2 AND reduced = 0`,
      )
      .bind(range.from, range.to, JSON.stringify(owed)),
    d1
      .prepare(`DELETE FROM analytics_pending WHERE seq BETWEEN ?1 AND ?2 AND (reduced = 1 OR views = 0)`)
      .bind(range.from, range.to),
    d1
      .prepare(`UPDATE analytics_handoffs SET customers = ?2 WHERE from_seq = ?1`)
      .bind(range.from, JSON.stringify(listed)),
    d1
      .prepare(`SELECT coalesce(sum(views), 0) AS owed FROM analytics_pending WHERE seq BETWEEN ?1 AND ?2`)
      .bind(range.from, range.to),
  ];
}

/**
 * The statements that end a counted range (count.ts `countRange`): its rows and its handoff go, or, when reducers
 * failed, what they are still owed stays (`keepOwed`).
 */
export function closingStatements(d1: D1Database, range: PendingRange, { owed, stillListed }: Handoff) {
  if (owed.length === 0) return [deleteRange(d1, range), d1.prepare(HANDED_OFF).bind(range.from)];
  return keepOwed(d1, range, owed, stillListed);
}

/** The page views a range still owes reducers, from the results of its `closingStatements`. */
export const viewsStillOwed = ({ owed }: Handoff, closed: D1Result<Record<string, unknown>>[]) =>
  owed.length === 0 ? 0 : Number(closed.at(-1)!.results[0]!.owed);

/** Handoffs a cron began and did not finish: their ranges are folded first, with the same customers. */
export async function unfinishedHandoffs(d1: D1Database): Promise<{ range: PendingRange; customers: string }[]> {
  const { results } = await d1
    .prepare(
      `SELECT h.from_seq AS "from", h.to_seq AS "to", h.customers,
        (SELECT coalesce(sum(views), 0) FROM analytics_pending p WHERE p.seq BETWEEN h.from_seq AND h.to_seq) AS views
      FROM analytics_handoffs h ORDER BY h.from_seq`,
    )
    .all<PendingRange & { customers: string }>();
  return results.map(({ customers, ...range }) => ({ range, customers }));
}
