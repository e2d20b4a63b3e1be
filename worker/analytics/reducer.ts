/**
 * @module A reducer: a Durable Object per shard of customers (reducer-shards.ts) that holds their page views, summed
 * per URL, day, mapping and crawler flag, so that their counter rows are written once when the sums settle rather
 * than once a minute. The minute cron hands it each range's sums (`hold`, handoff.ts); for a metered customer (a
 * plan with a limit) also their visitors' tallies, which it bills against each visitor's daily budget
 * (reducer-visitors.ts). It settles a customer's sums into the counters (as a pending row of sums, reduced = 1,
 * which it counts at once through count.ts, or the minute cron does) when:
 * - someone reads counters it cannot add held views to exactly (`settleCounters`; the others `peek`, which settles
 *   nothing: models/held-counts.ts);
 * - the views it holds of a metered customer could reach their limit (the handoff tells it what is left: `headroom`),
 *   so a limit is enforced within the minute, as when every view was folded each minute;
 * - the customer's billing period is about to end (their views count in their period);
 * - a day has passed since everything was last settled (`SETTLE_ALL_EVERY_MS`), or it holds too many sums.
 *
 * Nothing is lost or counted twice:
 * - Each part of a handoff (its sums, its views that spent no quota, its visitors' counts) is written to the
 *   object's own storage (`held_log`, `visitor_log`, `visitor_overflow_log`) before `hold` answers, under its
 *   position (`positionOf`: handoff and part), and a part at or before the last position is ignored, so the cron may
 *   hand a range over again.
 * - Settling writes, in one D1 transaction, the pending rows and each customer's checkpoint (`reducer_checkpoints`:
 *   the last position whose sums are counted; a settle may come between two parts of a handoff); the pending rows
 *   leave out the sums of any customer whose checkpoint already covers them. So a settle redone after an error or a
 *   restart counts nothing twice.
 * - After a restart, or an error of D1, it holds again what its log has past each customer's checkpoint. Visitors'
 *   counts are never settled: they are read back whole (the table's triples; the overflow sketches' counters as last
 *   written, then the overflow triples logged since, in order), and forgotten with their day.
 */
import { DurableObject } from "cloudflare:workers";
import type { AnalyticsReducerRpc, Env } from "../env";
import type { HandoffPart, HeldSum, Headroom } from "../messages/analytics";
import { utcDay } from "../lib/days";
import { addSums, noHeldCounts, recentRows, urlSums, type HeldPeek } from "../models/held-counts";
import { countSettled } from "./count";
import { isolatingFailures } from "./fold-isolation";
import { HOLD_MAX_SUMS, sumRuns } from "./sum-runs";
import { HeldSums, MAX_HELD_BYTES, MAX_HELD_SUMS, settleGroups } from "./reducer-sums";
import { MAX_VISITORS, VISITORS_PER_ROW, VisitorCounts } from "./reducer-visitors";

/** Everything held is settled at least this often. */
export const SETTLE_ALL_EVERY_MS = 24 * 3_600_000;
/** A customer whose period ends sooner than this is settled (views count in the period they belong to). */
export const SETTLE_BEFORE_PERIOD_END_MS = 3 * 60_000;
/** Rows the log keeps before it is rewritten as what is held (so a restart reads little). */
const COMPACT_AFTER_ROWS = 200;
const DAY_MS = 86_400_000;
/** Days since 1970, UTC: when the visitors' log was last rewritten. */
const today = () => Math.floor(Date.now() / DAY_MS);
/** The bytes a typed array shows, as a storage value (a copy only when it is part of a larger buffer). */
const bytesOf = (view: Uint32Array | Uint16Array): ArrayBuffer =>
  view.byteOffset === 0 && view.byteLength === view.buffer.byteLength
    ? (view.buffer as ArrayBuffer)
    : (view.slice().buffer as ArrayBuffer);

/** A row of `held_log`: a part's (or, rewritten, everything's) sums and views that spent no quota. */
interface LoggedPart {
  sums: HeldSum[];
  unbilled: [userId: string, views: number, deliveries: number][];
}

/** A row as written before visitors were billed here: sums alone. */
const loggedPart = (json: string): LoggedPart => {
  const row = JSON.parse(json) as LoggedPart | HeldSum[];
  return Array.isArray(row) ? { sums: row, unbilled: [] } : row;
};
/** URLs a peek may ask for: the analytics list's largest page (contract/schemas.ts `analyticsQuery`). */
export const PEEK_MAX_URLS = 1_000;
/** How often the alarm looks at the periods and the day, when nothing else wakes the object. */
const ALARM_EVERY_MS = 3_600_000;

/** Parts a handoff may have: one range holds at most 250,000 views (fold.ts `FOLD_MAX_VIEWS`), 50 parts. */
const PARTS_PER_HANDOFF = 1_000;
/** Where a part stands among everything handed over: positions grow with handoffs and, within one, with parts. */
const positionOf = (handoff: number, part: number) => handoff * PARTS_PER_HANDOFF + part;

/**
 * The pending rows of a settle: its sums of customers whose checkpoint in this shard is before its position (?3);
 * the checkpoints follow in the same transaction.
 */
const SETTLED_ROW = `INSERT INTO analytics_pending (batch, views, events, reduced)
  SELECT ?1, sum(value ->> 'n'), json_group_array(json(value)), 1 FROM json_each(?4)
  WHERE NOT EXISTS (SELECT 1 FROM reducer_checkpoints c
    WHERE c.shard = ?2 AND c.user_id = value ->> 'userId' AND c.through >= ?3)
  HAVING count(*) > 0
  RETURNING seq, views`;

const CHECKPOINTS = `INSERT INTO reducer_checkpoints (shard, user_id, through)
  SELECT ?1, value, ?2 FROM json_each(?3) WHERE EXISTS (SELECT 1 FROM users WHERE users.id = value)
  ON CONFLICT (shard, user_id) DO UPDATE SET through = excluded.through WHERE excluded.through > through`;

export class AnalyticsReducer extends DurableObject<Env> implements AnalyticsReducerRpc {
  /** What is held; null until read back from the log (after a start or an error). */
  private held: HeldSums | null = null;
  /** The metered customers' visitors' counts of the last days; null until read back from the log. */
  private visitors: VisitorCounts | null = null;
  private periodEnds = new Map<string, number>();
  /** One call at a time: a settle and a hold never see each other half done. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS held_log (position INTEGER NOT NULL, chunk INTEGER NOT NULL,
      sums TEXT NOT NULL, PRIMARY KEY (position, chunk))`);
    sql.exec(`CREATE TABLE IF NOT EXISTS visitor_log (position INTEGER NOT NULL, day TEXT NOT NULL,
      chunk INTEGER NOT NULL, counts BLOB NOT NULL, PRIMARY KEY (position, day, chunk))`);
    sql.exec(`CREATE TABLE IF NOT EXISTS visitor_overflow_log (position INTEGER NOT NULL, day TEXT NOT NULL,
      chunk INTEGER NOT NULL, counts BLOB NOT NULL, PRIMARY KEY (position, day, chunk))`);
    sql.exec(`CREATE TABLE IF NOT EXISTS visitor_overflow (day TEXT NOT NULL, chunk INTEGER NOT NULL,
      counters BLOB NOT NULL, PRIMARY KEY (day, chunk))`);
    sql.exec(`CREATE TABLE IF NOT EXISTS period_ends (user_id TEXT PRIMARY KEY, ends INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`);
  }

  hold(
    shard: number,
    handoff: number,
    part: number,
    { sums, tallies, periodEnds, headroom, visitorQuotas }: HandoffPart,
  ): Promise<void> {
    return this.inTurn(async () => {
      const held = await this.state(shard);
      if (part >= PARTS_PER_HANDOFF) throw new RangeError(`A handoff has at most ${PARTS_PER_HANDOFF} parts`);
      if (sums.length > HOLD_MAX_SUMS || tallies.length > HOLD_MAX_SUMS) {
        throw new RangeError(`A part holds at most ${HOLD_MAX_SUMS} sums and ${HOLD_MAX_SUMS} tallies`);
      }
      const position = positionOf(handoff, part);
      if (position <= this.meta("last_position")) return;
      const wasFull = this.visitors!.full;
      const { unbilled, counted, overflowed } = this.visitors!.bill(tallies, visitorQuotas);
      if (this.visitors!.full && !wasFull) {
        console.warn(
          `Reducer ${shard} counts ${MAX_VISITORS} visitors exactly, the rest in a sketch (billed at most their budget, ` +
            `some less): raise ANALYTICS_REDUCER_SHARDS (docs/scaling.md)`,
        );
      }
      const logged: LoggedPart = {
        sums,
        unbilled: [...unbilled].map(([userId, [views, deliveries]]) => [userId, views, deliveries]),
      };
      try {
        this.ctx.storage.transactionSync(() => {
          if (sums.length > 0 || logged.unbilled.length > 0) {
            this.ctx.storage.sql.exec(
              `INSERT INTO held_log (position, chunk, sums) VALUES (?, 0, ?)`,
              position,
              JSON.stringify(logged),
            );
          }
          for (const [day, triples] of counted) this.logVisitors("visitor_log", position, day, triples);
          for (const [day, triples] of overflowed) this.logVisitors("visitor_overflow_log", position, day, triples);
          for (const [userId, ends] of Object.entries(periodEnds)) {
            if (this.periodEnds.get(userId) === ends) continue;
            this.ctx.storage.sql.exec(`INSERT OR REPLACE INTO period_ends (user_id, ends) VALUES (?, ?)`, userId, ends);
            this.periodEnds.set(userId, ends);
          }
          this.setMeta("last_position", position);
        });
      } catch (err) {
        // The visitors were counted in memory only: read back from the log what it has.
        this.held = this.visitors = null;
        throw err;
      }
      held.add(sums);
      for (const [userId, views, deliveries] of logged.unbilled) held.addUnbilled(userId, views, deliveries);
      if (this.logRows("held_log") > COMPACT_AFTER_ROWS) this.compact(held);
      const visitorRows = this.logRows("visitor_log") + this.logRows("visitor_overflow_log");
      if (visitorRows > COMPACT_AFTER_ROWS || this.meta("visitors_compacted_day") < today()) this.compactVisitors();
      try {
        await this.settleDue(shard, held, headroom);
      } catch (err) {
        // The handoff is held all the same: the alarm or the next hold settles them.
        console.warn(`Reducer ${shard} could not settle what was due`, err);
      }
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + ALARM_EVERY_MS);
    });
  }

  settle(shard: number, userIds: string[] | null): Promise<number> {
    return this.inTurn(async () => this.settleNow(shard, await this.state(shard), userIds));
  }

  /**
   * What it holds of the customer, settling nothing (a reader adds it to the counters: models/held-counts.ts), and the
   * last position handed to it: a settle of the customer after this answer checkpoints them at that position or later.
   * With `urls` (a page of the analytics list, at most `PEEK_MAX_URLS`), also those rows' held sums, and with `recent`
   * (at most as many), the rows of its newest held views and theirs (models/held-counts.ts `recentRows`).
   */
  peek(shard: number, userId: string, urls: readonly string[] = [], recent = 0): Promise<HeldPeek> {
    return this.inTurn(async () => {
      if (urls.length > PEEK_MAX_URLS || recent > PEEK_MAX_URLS) {
        throw new RangeError(`A peek asks for at most ${PEEK_MAX_URLS} URLs and ${PEEK_MAX_URLS} recent rows`);
      }
      const held = await this.state(shard);
      const sums = held.heldOf(userId);
      const newest = recentRows(sums, recent);
      return {
        shard,
        position: this.meta("last_position"),
        counts: addSums(noHeldCounts(), sums),
        heldSince: held.heldSince(userId),
        ...newest,
        ...urlSums(sums, new Set([...urls, ...newest.recent])),
      };
    });
  }

  async alarm(): Promise<void> {
    await this.inTurn(async () => {
      const shard = this.meta("shard", -1);
      if (shard < 0) return;
      const held = await this.state(shard);
      await this.settleDue(shard, held);
      if (held.size > 0) await this.ctx.storage.setAlarm(Date.now() + ALARM_EVERY_MS);
    });
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => undefined);
    return result;
  }

  private meta(key: string, fallback = 0): number {
    const row = this.ctx.storage.sql.exec<{ value: number }>(`SELECT value FROM meta WHERE key = ?`, key).toArray();
    return row[0]?.value ?? fallback;
  }

  private setMeta(key: string, value: number) {
    this.ctx.storage.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, key, value);
  }

  /**
   * What is held: the log's sums and unbilled views past each customer's checkpoint, read back once after a start
   * or an error; and the visitors' counts, read back whole.
   */
  private async state(shard: number): Promise<HeldSums> {
    if (!this.visitors) {
      const visitors = new VisitorCounts();
      const sql = this.ctx.storage.sql;
      for (const row of sql.exec<{ day: string; counts: ArrayBuffer }>(
        `SELECT day, counts FROM visitor_log ORDER BY position, day, chunk`,
      )) {
        visitors.load(row.day, new Uint32Array(row.counts));
      }
      for (const row of sql.exec<{ day: string; chunk: number; counters: ArrayBuffer }>(
        `SELECT day, chunk, counters FROM visitor_overflow`,
      )) {
        visitors.loadOverflowChunk(row.day, row.chunk, new Uint16Array(row.counters));
      }
      for (const row of sql.exec<{ day: string; counts: ArrayBuffer }>(
        `SELECT day, counts FROM visitor_overflow_log ORDER BY position, day, chunk`,
      )) {
        visitors.loadOverflow(row.day, new Uint32Array(row.counts));
      }
      this.visitors = visitors;
    }
    if (this.held) return this.held;
    if (this.meta("shard", -1) !== shard) this.setMeta("shard", shard);
    const { results } = await this.env.DB.prepare(
      `SELECT user_id AS userId, through FROM reducer_checkpoints WHERE shard = ?`,
    )
      .bind(shard)
      .all<{ userId: string; through: number }>();
    const checkpoints = new Map(results.map((row) => [row.userId, row.through]));
    const unsettled = (position: number, userId: string) => position > (checkpoints.get(userId) ?? 0);
    const held = new HeldSums();
    for (const row of this.ctx.storage.sql.exec<{ position: number; sums: string }>(
      `SELECT position, sums FROM held_log ORDER BY position, chunk`,
    )) {
      const { sums, unbilled } = loggedPart(row.sums);
      // When they came is not known: a list sorted by Last Accessed settles them (models/usage.ts).
      held.add(
        sums.filter((sum) => unsettled(row.position, sum.userId)),
        0,
      );
      for (const [userId, views, deliveries] of unbilled) {
        if (unsettled(row.position, userId)) held.addUnbilled(userId, views, deliveries);
      }
    }
    this.periodEnds = new Map(
      this.ctx.storage.sql
        .exec<{ user_id: string; ends: number }>(`SELECT user_id, ends FROM period_ends`)
        .toArray()
        .map((row) => [row.user_id, row.ends]),
    );
    if (this.meta("last_settle_all", -1) < 0) this.setMeta("last_settle_all", Date.now());
    this.held = held;
    return held;
  }

  /** Settles whom a limit (`headroom`), a period end, the day or the object's memory asks for. */
  private async settleDue(shard: number, held: HeldSums, headroom: Record<string, Headroom> = {}): Promise<void> {
    const now = Date.now();
    const full = held.size > MAX_HELD_SUMS || held.bytes > MAX_HELD_BYTES;
    if (full) this.capReached(shard, held);
    if (full || now - this.meta("last_settle_all", now) >= SETTLE_ALL_EVERY_MS) {
      await this.settleNow(shard, held, null);
      return;
    }
    const couldReachLimit = (userId: string) => {
      const room = headroom[userId];
      if (!room) return false;
      const billed = held.billed(userId);
      return (
        (room.requests !== null && billed.requests >= room.requests) ||
        (room.deliveries !== null && billed.deliveries >= room.deliveries)
      );
    };
    const due = held.customers().filter((userId) => {
      const ends = this.periodEnds.get(userId);
      return couldReachLimit(userId) || (ends !== undefined && ends - now < SETTLE_BEFORE_PERIOD_END_MS);
    });
    if (due.length > 0) await this.settleNow(shard, held, due);
  }

  /**
   * Counts a settle of everything because the sums reached a cap, per UTC day, in the object's own storage, and says
   * so in the log with the day's count: a shard that settles at its cap more than a few times a day asks for more
   * shards (docs/scaling.md).
   */
  private capReached(shard: number, held: HeldSums) {
    const day = today();
    const times = (this.meta("cap_settles_day", -1) === day ? this.meta("cap_settles") : 0) + 1;
    this.setMeta("cap_settles_day", day);
    this.setMeta("cap_settles", times);
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.warn(
      `Reducer ${shard} reached its cap (${held.size} sums in ${mb(held.bytes)} MB; at most ${MAX_HELD_SUMS} in ` +
        `${mb(MAX_HELD_BYTES)} MB) and settles everything it holds, ${times} times today (UTC): raise ` +
        `ANALYTICS_REDUCER_SHARDS (docs/scaling.md)`,
    );
  }

  /**
   * Settles the customers' sums (everyone's, for null); answers how many views that was. They are written in groups
   * (`settleGroups`), each with its customers' checkpoints in one D1 transaction: a settle that fails half way has
   * settled whole customers, which the checkpoints leave out when what is held is read back.
   */
  private async settleNow(shard: number, held: HeldSums, userIds: string[] | null): Promise<number> {
    const all = userIds === null;
    const customers = (userIds ?? held.customers()).filter((userId) => held.has(userId));
    let views = 0;
    for (const group of settleGroups(held, customers)) views += await this.settleGroup(shard, held, group);
    if (all) this.settledAll(held);
    else if (customers.length > 0 && (held.size === 0 || this.logRows("held_log") > COMPACT_AFTER_ROWS)) {
      this.compact(held);
    }
    return views;
  }

  /** Writes the customers' sums and checkpoints in one D1 transaction, then counts them; answers their views. */
  private async settleGroup(shard: number, held: HeldSums, customers: string[]): Promise<number> {
    const through = this.meta("last_position");
    const d1 = this.env.DB;
    const batchId = `reducer-${shard}-${through}-${crypto.randomUUID()}`;
    let rows: { seq: number; views: number }[];
    try {
      // Each run of sums made JSON as it is taken: only the group's JSON is in memory at once, not their objects.
      const settled = Array.from(sumRuns(held.takeEach(customers)), (some) =>
        d1.prepare(SETTLED_ROW).bind(batchId, shard, through, JSON.stringify(some)),
      );
      const written = await d1.batch<{ seq: number; views: number }>([
        ...settled,
        d1.prepare(CHECKPOINTS).bind(shard, through, JSON.stringify(customers)),
      ]);
      rows = written.flatMap((result) => result.results);
    } catch (err) {
      // Whether D1 took them is not known: what is held is read back from the log and the checkpoints.
      this.held = null;
      throw err;
    }
    if (rows.length === 0) return 0;
    const range = {
      from: Math.min(...rows.map((row) => row.seq)),
      to: Math.max(...rows.map((row) => row.seq)),
      views: rows.reduce((views, row) => views + row.views, 0),
    };
    try {
      // Counted now, so that the reader who asked sees them, a customer whose rows fail set aside (quarantine.ts); if
      // this fails, the minute cron counts the rows.
      const now = new Date();
      await isolatingFailures(this.env, range, now, () => countSettled(this.env, range, now));
    } catch (err) {
      console.warn(`Reducer ${shard} settled rows ${range.from} to ${range.to}; the minute cron will fold them`, err);
    }
    return range.views;
  }

  private settledAll(held: HeldSums) {
    this.compact(held);
    this.setMeta("last_settle_all", Date.now());
  }

  private logRows(log: "held_log" | "visitor_log" | "visitor_overflow_log"): number {
    return this.ctx.storage.sql.exec<{ rows: number }>(`SELECT count(*) AS rows FROM ${log}`).one().rows;
  }

  private logVisitors(log: "visitor_log" | "visitor_overflow_log", position: number, day: string, triples: number[]) {
    const all = Uint32Array.from(triples);
    for (let chunk = 0; chunk * VISITORS_PER_ROW * 3 < all.length; chunk++) {
      const some = all.subarray(chunk * VISITORS_PER_ROW * 3, (chunk + 1) * VISITORS_PER_ROW * 3);
      this.ctx.storage.sql.exec(
        `INSERT INTO ${log} (position, day, chunk, counts) VALUES (?, ?, ?, ?)`,
        position,
        day,
        chunk,
        bytesOf(some),
      );
    }
  }

  /**
   * Rewrites the log as what is held now, under the last position: everything older is settled or in it, and what
   * comes later has a later position.
   */
  private compact(held: HeldSums) {
    const through = this.meta("last_position");
    const unbilled = held.listUnbilled();
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec(`DELETE FROM held_log`);
      const write = (chunk: number, logged: LoggedPart) =>
        this.ctx.storage.sql.exec(
          `INSERT INTO held_log (position, chunk, sums) VALUES (?, ?, ?)`,
          through,
          chunk,
          JSON.stringify(logged),
        );
      let chunk = 0;
      // A run at a time: the sums are read from the columns as each row is written.
      for (const some of sumRuns(held.each())) {
        write(chunk, { sums: some, unbilled: chunk === 0 ? unbilled : [] });
        chunk += 1;
      }
      if (chunk === 0 && unbilled.length > 0) write(0, { sums: [], unbilled });
      const heldCustomers = new Set(held.customers());
      for (const userId of this.periodEnds.keys()) {
        if (heldCustomers.has(userId)) continue;
        this.ctx.storage.sql.exec(`DELETE FROM period_ends WHERE user_id = ?`, userId);
        this.periodEnds.delete(userId);
      }
    });
  }

  /**
   * Rewrites the visitors' log as the counts of yesterday and today, forgetting older days (at least daily, so a
   * reducer holds at most two days' overflow sketches): the table's triples, and each overflow sketch's counters.
   */
  private compactVisitors() {
    const visitors = this.visitors!;
    visitors.forgetBefore(utcDay(Date.now() - DAY_MS));
    const through = this.meta("last_position");
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      sql.exec(`DELETE FROM visitor_log`);
      sql.exec(`DELETE FROM visitor_overflow_log`);
      sql.exec(`DELETE FROM visitor_overflow`);
      for (const [day, chunk, triples] of visitors.dump()) {
        sql.exec(
          `INSERT INTO visitor_log (position, day, chunk, counts) VALUES (?, ?, ?, ?)`,
          through,
          day,
          chunk,
          bytesOf(triples),
        );
      }
      for (const [day, chunk, counters] of visitors.dumpOverflow()) {
        sql.exec(`INSERT INTO visitor_overflow (day, chunk, counters) VALUES (?, ?, ?)`, day, chunk, bytesOf(counters));
      }
      this.setMeta("visitors_compacted_day", today());
    });
  }
}
