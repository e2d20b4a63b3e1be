/**
 * @module A reducer: a Durable Object per shard of customers (reducer-shards.ts) that holds the page views of
 * customers without a limit, summed per URL, day, mapping and crawler flag, so that their counter rows are written
 * once when the sums settle rather than once a minute. The minute cron hands it each range's sums (`hold`,
 * fold.ts); it settles a customer's sums into the counters (as a pending row the fold counts, reduced = 1) when:
 * - someone reads that customer's counters (every reader calls `settleCounters` first);
 * - the customer's billing period is about to end (their views count in their period), or their plan now has a
 *   limit (the minute cron then counts their views at once, and the limit needs what was held);
 * - a day has passed since everything was last settled (`SETTLE_ALL_EVERY_MS`), or it holds too many sums.
 *
 * Nothing is lost or counted twice:
 * - Each part of a handoff's sums is written to the object's own storage (`held_log`) before `hold` answers, under
 *   its position (`positionOf`: handoff and part), and a part at or before the last position is ignored, so the
 *   cron may hand a range over again.
 * - Settling writes, in one D1 transaction, the pending rows and each customer's checkpoint (`reducer_checkpoints`:
 *   the last position whose sums are counted; a settle may come between two parts of a handoff); the pending rows
 *   leave out the sums of any customer whose checkpoint already covers them. So a settle redone after an error or a
 *   restart counts nothing twice.
 * - After a restart, or an error of D1, it holds again what its log has past each customer's checkpoint.
 */
import { DurableObject } from "cloudflare:workers";
import type { AnalyticsReducerRpc, Env } from "../env";
import type { HeldSum } from "../messages/analytics";
import { foldRange } from "./fold";
import { HOLD_MAX_SUMS } from "./reducer-shards";
import { HeldSums } from "./reducer-sums";

/** Everything held is settled at least this often. */
export const SETTLE_ALL_EVERY_MS = 24 * 3_600_000;
/** A customer whose period ends sooner than this is settled (views count in the period they belong to). */
export const SETTLE_BEFORE_PERIOD_END_MS = 3 * 60_000;
/** More sums than this (about 35 MB: reducer-sums.ts) and everything is settled: a Durable Object has 128 MB. */
export const MAX_HELD_SUMS = 100_000;
/** Sums per pending row (about 150 bytes each: D1 takes at most 2 MB a value) and per row of the log. */
const SUMS_PER_ROW = HOLD_MAX_SUMS;
/** Rows the log keeps before it is rewritten as what is held (so a restart reads little). */
const COMPACT_AFTER_ROWS = 200;
/** How often the alarm looks at the periods and the day, when nothing else wakes the object. */
const ALARM_EVERY_MS = 3_600_000;

/** Parts a handoff may have: one range holds at most 250,000 views (fold.ts `FOLD_MAX_VIEWS`), 50 parts. */
const PARTS_PER_HANDOFF = 1_000;
/** Where a part stands among everything handed over: positions grow with handoffs and, within one, with parts. */
const positionOf = (handoff: number, part: number) => handoff * PARTS_PER_HANDOFF + part;

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

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
  private periodEnds = new Map<string, number>();
  /** One call at a time: a settle and a hold never see each other half done. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS held_log (position INTEGER NOT NULL, chunk INTEGER NOT NULL,
      sums TEXT NOT NULL, PRIMARY KEY (position, chunk))`);
    sql.exec(`CREATE TABLE IF NOT EXISTS period_ends (user_id TEXT PRIMARY KEY, ends INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`);
  }

  hold(
    shard: number,
    handoff: number,
    part: number,
    sums: HeldSum[],
    periodEnds: Record<string, number>,
    metered: string[],
  ): Promise<void> {
    return this.inTurn(async () => {
      const held = await this.state(shard);
      if (part >= PARTS_PER_HANDOFF) throw new RangeError(`A handoff has at most ${PARTS_PER_HANDOFF} parts`);
      if (sums.length > HOLD_MAX_SUMS) throw new RangeError(`A part holds at most ${HOLD_MAX_SUMS} sums`);
      const position = positionOf(handoff, part);
      if (position <= this.meta("last_position")) return;
      this.ctx.storage.transactionSync(() => {
        if (sums.length > 0) {
          this.ctx.storage.sql.exec(
            `INSERT INTO held_log (position, chunk, sums) VALUES (?, 0, ?)`,
            position,
            JSON.stringify(sums),
          );
        }
        for (const [userId, ends] of Object.entries(periodEnds)) {
          if (this.periodEnds.get(userId) === ends) continue;
          this.ctx.storage.sql.exec(`INSERT OR REPLACE INTO period_ends (user_id, ends) VALUES (?, ?)`, userId, ends);
          this.periodEnds.set(userId, ends);
        }
        this.setMeta("last_position", position);
      });
      held.add(sums);
      if (this.logRows() > COMPACT_AFTER_ROWS) this.compact(held);
      try {
        await this.settleDue(shard, held, metered);
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

  /** What is held: the log's sums past each customer's checkpoint, read back once after a start or an error. */
  private async state(shard: number): Promise<HeldSums> {
    if (this.held) return this.held;
    if (this.meta("shard", -1) !== shard) this.setMeta("shard", shard);
    const { results } = await this.env.DB.prepare(
      `SELECT user_id AS userId, through FROM reducer_checkpoints WHERE shard = ?`,
    )
      .bind(shard)
      .all<{ userId: string; through: number }>();
    const checkpoints = new Map(results.map((row) => [row.userId, row.through]));
    const held = new HeldSums();
    for (const row of this.ctx.storage.sql.exec<{ position: number; sums: string }>(
      `SELECT position, sums FROM held_log ORDER BY position, chunk`,
    )) {
      const sums = JSON.parse(row.sums) as HeldSum[];
      held.add(sums.filter((sum) => row.position > (checkpoints.get(sum.userId) ?? 0)));
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

  /** Settles whom a limit (`metered`), a period end, the day or the object's memory asks for. */
  private async settleDue(shard: number, held: HeldSums, metered: string[] = []): Promise<void> {
    const now = Date.now();
    if (held.size > MAX_HELD_SUMS || now - this.meta("last_settle_all", now) >= SETTLE_ALL_EVERY_MS) {
      await this.settleNow(shard, held, null);
      return;
    }
    const limited = new Set(metered);
    const ending = held.customers().filter((userId) => {
      const ends = this.periodEnds.get(userId);
      return limited.has(userId) || (ends !== undefined && ends - now < SETTLE_BEFORE_PERIOD_END_MS);
    });
    if (ending.length > 0) await this.settleNow(shard, held, ending);
  }

  /** Settles the customers' sums (everyone's, for null); answers how many views that was. */
  private async settleNow(shard: number, held: HeldSums, userIds: string[] | null): Promise<number> {
    const all = userIds === null;
    const customers = (userIds ?? held.customers()).filter((userId) => held.has(userId));
    if (customers.length === 0) {
      if (all) this.settledAll(held);
      return 0;
    }
    const through = this.meta("last_position");
    const sums = customers.flatMap((userId) => held.take(userId));
    const d1 = this.env.DB;
    const batchId = `reducer-${shard}-${through}-${crypto.randomUUID()}`;
    let rows: { seq: number; views: number }[];
    try {
      const written = await d1.batch<{ seq: number; views: number }>([
        ...chunks(sums, SUMS_PER_ROW).map((some) =>
          d1.prepare(SETTLED_ROW).bind(batchId, shard, through, JSON.stringify(some)),
        ),
        d1.prepare(CHECKPOINTS).bind(shard, through, JSON.stringify(customers)),
      ]);
      rows = written.flatMap((result) => result.results);
    } catch (err) {
      // Whether D1 took them is not known: what is held is read back from the log and the checkpoints.
      this.held = null;
      throw err;
    }
    if (all) this.settledAll(held);
    else if (held.size === 0 || this.logRows() > COMPACT_AFTER_ROWS) this.compact(held);
    if (rows.length === 0) return 0;
    const range = {
      from: Math.min(...rows.map((row) => row.seq)),
      to: Math.max(...rows.map((row) => row.seq)),
      views: rows.reduce((views, row) => views + row.views, 0),
    };
    try {
      // Counted now, so that the reader who asked sees them; if this fails, the minute cron counts the rows.
      await foldRange(this.env, range, new Date());
    } catch (err) {
      console.warn(`Reducer ${shard} settled rows ${range.from} to ${range.to}; the minute cron will fold them`, err);
    }
    return range.views;
  }

  private settledAll(held: HeldSums) {
    this.compact(held);
    this.setMeta("last_settle_all", Date.now());
  }

  private logRows(): number {
    return this.ctx.storage.sql.exec<{ rows: number }>(`SELECT count(*) AS rows FROM held_log`).one().rows;
  }

  /**
   * Rewrites the log as what is held now, under the last position: everything older is settled or in it, and what
   * comes later has a later position.
   */
  private compact(held: HeldSums) {
    const through = this.meta("last_position");
    const sums = held.list();
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec(`DELETE FROM held_log`);
      for (const [i, some] of chunks(sums, SUMS_PER_ROW).entries()) {
        this.ctx.storage.sql.exec(
          `INSERT INTO held_log (position, chunk, sums) VALUES (?, ?, ?)`,
          through,
          i,
          JSON.stringify(some),
        );
      }
      const heldCustomers = new Set(held.customers());
      for (const userId of this.periodEnds.keys()) {
        if (heldCustomers.has(userId)) continue;
        this.ctx.storage.sql.exec(`DELETE FROM period_ends WHERE user_id = ?`, userId);
        this.periodEnds.delete(userId);
      }
    });
  }
}
