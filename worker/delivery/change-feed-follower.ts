/**
 * @module One isolate's follower of the delivery change feed (change-feed.ts): which entries changed since it began
 * following, read every ten seconds, each read shared with the isolate's location through its cache.
 */
import { createDb, type Db } from "../db/client";
import type { Env } from "../env";
import { deliveryChangesAfter, lastDeliveryChangeId } from "../models/delivery-changes";
import { readCached, writeCached } from "./location-cache";

/** How long KV takes, at most, to show a write in every location (Cloudflare documents up to 60 seconds). */
export const KV_PROPAGATION_MS = 60_000;
/** The longest a location keeps an unchanged entry (and the rows the feed keeps cover twice that: models purge). */
export const KEPT_UNCHANGED_MS = 3_600_000;
/** How often an isolate reads the feed. */
export const FEED_READ_EVERY_MS = 10_000;
/** A feed read longer ago than this is not trusted: kept entries fall back to their short times. */
export const FEED_TRUSTED_MS = 30_000;
/** Stamps come from other machines' clocks: a change is taken as this much earlier than its stamp says. */
const CLOCK_MARGIN_MS = 5_000;
/** Rows per read of D1, and reads per refresh; a backlog past them (a bulk change) starts the feed afresh. */
const PAGE_ROWS = 1_000;
const PAGES_PER_REFRESH = 5;
/** Keys an isolate remembers; past it the feed starts afresh (a bulk change of many customers). */
const MAX_KEYS = 50_000;

/**
 * One isolate's read of the feed, shared with its location: the rows after id `from` up to `to`, read from `at` on
 * (rows committed by then are in it) and done at `done` (no row up to `to` was committed later).
 */
interface FeedPage {
  from: number;
  to: number;
  at: number;
  done: number;
  rows: [id: number, key: string, changedAt: number][];
}

const pageKey = (now: number) => `changes:${Math.floor(now / FEED_READ_EVERY_MS)}`;

export class ChangeFeedFollower {
  /** The newest row this isolate has (null: not following yet). */
  private lastId: number | null = null;
  /** Every change stamped from here on is known, up to `readAt`. */
  private coveredFrom = Infinity;
  private readAt = -Infinity;
  /** The newest stamp of each key changed since `coveredFrom`. */
  private readonly changed = new Map<string, number>();
  /** When a read was last begun: one every `FEED_READ_EVERY_MS` at most, failed or not (D1 down gets no herd). */
  private attemptedAt = -Infinity;

  /** Forgets what it followed: the next read starts afresh, as a new isolate's does (tests, their database emptied). */
  restart(): void {
    this.changed.clear();
    this.lastId = null;
    this.coveredFrom = Infinity;
    this.readAt = -Infinity;
    this.attemptedAt = -Infinity;
  }

  /** Whether the entry at `key` is known not to have changed from `since` until the feed's read, recent at `now`. */
  unchangedSince(key: string, since: number, now: number): boolean {
    const from = since - CLOCK_MARGIN_MS;
    return now - this.readAt <= FEED_TRUSTED_MS && from >= this.coveredFrom && !((this.changed.get(key) ?? -1) >= from);
  }

  /** Reads the feed when due (for the caller's `waitUntil`); undefined when it is not due or already being read. */
  refreshIfDue(env: Env, now: number): Promise<void> | undefined {
    if (now - this.readAt < FEED_READ_EVERY_MS || now - this.attemptedAt < FEED_READ_EVERY_MS) return undefined;
    this.attemptedAt = now;
    return this.refresh(env, now).catch((err: unknown) =>
      console.error("Reading the delivery change feed failed; kept entries use short times", err),
    );
  }

  private async refresh(env: Env, now: number): Promise<void> {
    // The time as the caller counts it (`now` may be a test's or the bench's), advancing as the reads take time.
    const started = Date.now();
    const clock = () => now + (Date.now() - started);
    const key = pageKey(now);
    const shared = (await readCached<FeedPage>(env, key, now))?.value;
    const lastId = now - this.readAt <= KEPT_UNCHANGED_MS ? this.lastId : null;
    if (shared && lastId === null) return this.startAt(shared.to, shared.done);
    if (shared && lastId !== null && shared.from <= lastId && lastId <= shared.to) return this.apply(shared, now);
    const db = createDb(env.DB);
    const page = lastId === null ? await newestPage(db, now, clock) : await pageAfter(db, lastId, now, clock);
    if (!page) {
      const last = await lastDeliveryChangeId(db);
      return this.startAt(last, clock());
    }
    if (lastId === null) this.startAt(page.to, page.done);
    else this.apply(page, now);
    await writeCached(env, key, page, now, now + FEED_READ_EVERY_MS);
  }

  /** Follows from row `lastId` on, every change stamped from `coveredFrom` on to be read. */
  private startAt(lastId: number, coveredFrom: number) {
    this.changed.clear();
    this.lastId = lastId;
    this.coveredFrom = coveredFrom;
    this.readAt = coveredFrom;
  }

  private apply(page: FeedPage, now: number) {
    const lastId = this.lastId!;
    // A shared page may start before our last row.
    for (const [id, key, changedAt] of page.rows) {
      if (id > lastId) this.changed.set(key, Math.max(changedAt, this.changed.get(key) ?? -1));
    }
    this.lastId = page.to;
    this.readAt = page.at;
    this.forgetOld(now);
  }

  /** Stamps older than any kept entry can ask about go; too many keys start the feed afresh. */
  private forgetOld(now: number) {
    const oldest = now - KEPT_UNCHANGED_MS - KV_PROPAGATION_MS - CLOCK_MARGIN_MS;
    for (const [key, changedAt] of this.changed) if (changedAt < oldest) this.changed.delete(key);
    if (this.changed.size > MAX_KEYS) this.startAt(this.lastId!, this.readAt);
  }
}

/** Where a new follower starts: after the newest row, nothing before it known. */
async function newestPage(db: Db, at: number, clock: () => number): Promise<FeedPage> {
  const last = await lastDeliveryChangeId(db);
  return { from: last, to: last, at, done: clock(), rows: [] };
}

/** The rows after `from`, or null when there are more than one refresh reads. */
async function pageAfter(db: Db, from: number, at: number, clock: () => number): Promise<FeedPage | null> {
  const rows: FeedPage["rows"] = [];
  for (let read = 0; read < PAGES_PER_REFRESH; read++) {
    const got = await deliveryChangesAfter(db, rows.at(-1)?.[0] ?? from, PAGE_ROWS);
    for (const r of got) rows.push([r.id, r.key, r.changedAt]);
    if (got.length < PAGE_ROWS) return { from, to: rows.at(-1)?.[0] ?? from, at, done: clock(), rows };
  }
  return null;
}
