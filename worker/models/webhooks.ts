/**
 * @module Webhooks and their deliveries (docs/webhooks.md). A webhook's secret is sealed under APP_SECRET (it signs
 * every event, so it must open again) and answered once, when the webhook is made. Deliveries are written by the
 * triggers of db/raw.ts (and `insertPing`), claimed with a lease by a sender, and recorded after each attempt.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import {
  WEBHOOKS_PER_CUSTOMER,
  type CreatedWebhook,
  type DeliveryStatus,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliverySummary,
  type WebhookEvent,
  type WebhookPayload,
} from "#contract/webhooks";
import type { Db } from "../db/client";
import { webhookDeliveries, webhooks } from "../db/schema";
import { encryptSecret, randomToken, type SecretKeys } from "../lib/crypto";
import { resealColumn } from "../lib/reseal";
import type { Page, PageParams } from "#contract/page";
import { pageOf } from "./page";
import { renderPayload, type StoredEvent } from "./webhook-payload";

/** 16 random bytes: ids are unguessable, and another customer's answers 404 all the same. */
const newWebhookId = () => `wh_${randomToken(16)}`;
export const isWebhookId = (id: string) => /^wh_[A-Za-z0-9_-]{22}$/.test(id);

const newSecret = () => `whsec_${randomToken(32)}`;

/** An event id as the triggers make one: `lower(hex(randomblob(16)))`. */
const randomHex = (bytes: number) =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** How long the delivery log keeps a delivery; the daily cron purges older ones. */
export const DELIVERY_LOG_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const iso = (time: number | Date | null) => (time === null ? null : new Date(time).toISOString());

/** The newest delivery of the webhook, read from `webhook_deliveries_webhook_idx` (one probe per webhook). */
const lastDelivery = sql<string | null>`(select json_object('event', d.event, 'status', d.status,
  'responseStatus', d.response_status, 'createdAt', d.created_at)
  from ${webhookDeliveries} d where d.webhook_id = ${webhooks}.id order by d.id desc limit 1)`;

/** `lastDelivery` as json_object writes it: the time in milliseconds. */
type StoredSummary = Omit<WebhookDeliverySummary, "createdAt"> & { createdAt: number };

function toWebhook(row: { id: string; url: string; createdAt: Date; last: string | null }): Webhook {
  const last = row.last === null ? null : (JSON.parse(row.last) as StoredSummary);
  return {
    id: row.id,
    url: row.url,
    createdAt: row.createdAt.toISOString(),
    lastDelivery: last && { ...last, createdAt: iso(last.createdAt)! },
  };
}

/**
 * A new webhook with a fresh secret, or null when the customer has WEBHOOKS_PER_CUSTOMER already: the count and
 * the insert are one statement, so two requests at once cannot pass the limit together.
 */
export async function createWebhook(
  db: Db,
  keys: SecretKeys,
  userId: string,
  url: string,
  now = new Date(),
): Promise<CreatedWebhook | null> {
  const id = newWebhookId();
  const secret = newSecret();
  const sealed = await encryptSecret(keys.current, secret);
  const result = await db.run(sql`insert into ${webhooks} (id, user_id, url, secret_encrypted, created_at)
    select ${id}, ${userId}, ${url}, ${sealed}, ${now.getTime()}
    where (select count(*) from ${webhooks} where user_id = ${userId}) < ${WEBHOOKS_PER_CUSTOMER}`);
  if (result.meta.changes === 0) return null;
  return { id, url, createdAt: now.toISOString(), lastDelivery: null, secret };
}

/** The customer's webhooks, oldest first (at most WEBHOOKS_PER_CUSTOMER). */
export async function listWebhooks(db: Db, userId: string, page: PageParams): Promise<Page<Webhook>> {
  return pageOf(
    db,
    db
      .select({ id: webhooks.id, url: webhooks.url, createdAt: webhooks.createdAt, last: lastDelivery })
      .from(webhooks)
      .where(eq(webhooks.userId, userId))
      .orderBy(asc(webhooks.createdAt), asc(webhooks.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(webhooks).where(eq(webhooks.userId, userId)),
    toWebhook,
  );
}

/** One of the customer's webhooks, or null (another customer's too). */
export async function getOwnWebhook(db: Db, userId: string, id: string) {
  if (!isWebhookId(id)) return null;
  const [row] = await db
    .select({ id: webhooks.id, url: webhooks.url })
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)));
  return row ?? null;
}

/** Deletes one of the customer's webhooks with its delivery log; false when there is no such webhook of theirs. */
export async function deleteWebhook(db: Db, userId: string, id: string): Promise<boolean> {
  if (!isWebhookId(id)) return false;
  const deleted = await db
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)))
    .returning({ id: webhooks.id });
  return deleted.length > 0;
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  eventId: webhookDeliveries.eventId,
  event: webhookDeliveries.event,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  responseStatus: webhookDeliveries.responseStatus,
  error: webhookDeliveries.error,
  createdAt: webhookDeliveries.createdAt,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  facts: webhookDeliveries.facts,
  payload: webhookDeliveries.payload,
};

type DeliveryRow = Pick<typeof webhookDeliveries.$inferSelect, keyof typeof deliveryColumns>;

function toDelivery({ facts, payload, ...row }: DeliveryRow): WebhookDelivery {
  return {
    ...row,
    event: row.event as WebhookEvent,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    // A claimed row's lease is not a due time: it is being sent.
    nextAttemptAt: row.status === "pending" ? iso(row.nextAttemptAt) : null,
    payload: JSON.parse(renderPayload({ ...row, facts, payload })) as WebhookPayload,
  };
}

/** A page of a webhook's delivery log, newest first, over `webhook_deliveries_webhook_idx`. */
export async function listDeliveries(db: Db, webhookId: string, page: PageParams): Promise<Page<WebhookDelivery>> {
  return pageOf(
    db,
    db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId))
      .orderBy(desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)),
    toDelivery,
  );
}

/** One delivery of the log. */
export async function getDelivery(db: Db, id: number): Promise<WebhookDelivery | null> {
  const [row] = await db.select(deliveryColumns).from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row ? toDelivery(row) : null;
}

/** A `ping` event for one webhook, claimed by the caller until `leaseUntil`: answered as claimed, to send at once. */
export async function insertPing(db: Db, webhook: { id: string; url: string }, now: Date, leaseUntil: Date) {
  const eventId = randomHex(16);
  const payload: WebhookPayload = {
    id: eventId,
    type: "ping",
    createdAt: now.toISOString(),
    data: { webhook: { id: webhook.id, url: webhook.url } },
  };
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      webhookId: webhook.id,
      eventId,
      event: "ping",
      payload: JSON.stringify(payload),
      createdAt: now,
      nextAttemptAt: leaseUntil,
    })
    .returning(claimedColumns);
  return toClaimed(row!);
}

/** A delivery a sender holds: what it sends, and how many attempts came before. */
export interface ClaimedDelivery {
  id: number;
  webhookId: string;
  event: string;
  /** The body, rendered (webhook-payload.ts). */
  payload: string;
  attempts: number;
}

const claimedColumns = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.webhookId,
  eventId: webhookDeliveries.eventId,
  event: webhookDeliveries.event,
  createdAt: webhookDeliveries.createdAt,
  facts: webhookDeliveries.facts,
  payload: webhookDeliveries.payload,
  attempts: webhookDeliveries.attempts,
};

const toClaimed = (row: StoredEvent & { id: number; webhookId: string; attempts: number }): ClaimedDelivery => ({
  id: row.id,
  webhookId: row.webhookId,
  event: row.event,
  payload: renderPayload(row),
  attempts: row.attempts,
});

/** Which due deliveries to claim. */
export interface ClaimScope {
  /** Only this customer's. */
  userId?: string;
  /** Only those due since then: what a change just wrote, not everyone's backlog (webhooks/after-change.ts). */
  dueSince?: Date;
  /** At most this many of one customer's, so that one customer's burst does not fill everyone's run. */
  perAccount?: number;
}

/** The earliest due deliveries a claim with `perAccount` shares out: the read stays bounded whatever the backlog. */
const FAIR_SHARE_WINDOW = 1_000;

/**
 * Claims up to `limit` deliveries that are due at `now`, earliest first, by moving their due time to `leaseUntil` in
 * one statement: a second sender at the same time finds them not due, and a sender that dies leaves them due again
 * when the lease ends. The due time is read from `webhook_deliveries_due_idx` alone, which holds only pending
 * deliveries; the customer's webhooks are checked on the rows found (the unary `+` keeps SQLite from walking a
 * webhook's whole log by `webhook_deliveries_webhook_idx` instead).
 */
export async function claimDueDeliveries(
  db: Db,
  now: Date,
  leaseUntil: Date,
  limit: number,
  { userId, dueSince, perAccount }: ClaimScope = {},
): Promise<ClaimedDelivery[]> {
  const due = lte(webhookDeliveries.nextAttemptAt, now);
  if (perAccount !== undefined && !userId && !dueSince) {
    return claim(db, due, leaseUntil, fairShare(now, limit, perAccount));
  }
  const ofUser = userId
    ? inArray(
        sql`+${webhookDeliveries.webhookId}`,
        db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.userId, userId)),
      )
    : undefined;
  const batch = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(due, dueSince && gte(webhookDeliveries.nextAttemptAt, dueSince), ofUser))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
  return claim(db, due, leaseUntil, batch);
}

async function claim(db: Db, due: SQL | undefined, leaseUntil: Date, batch: SQLWrapper): Promise<ClaimedDelivery[]> {
  const claimed = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: leaseUntil })
    .where(and(inArray(webhookDeliveries.id, batch), due))
    .returning(claimedColumns);
  return claimed.map(toClaimed);
}

/** The ids of up to `limit` of the earliest due deliveries, at most `perAccount` of them one customer's. */
function fairShare(now: Date, limit: number, perAccount: number): SQL {
  return sql`(SELECT id FROM (
      SELECT d.id AS id, d.next_attempt_at AS due,
        row_number() OVER (PARTITION BY w.user_id ORDER BY d.next_attempt_at, d.id) AS n
      FROM (SELECT id, webhook_id, next_attempt_at FROM ${webhookDeliveries}
            WHERE next_attempt_at <= ${now.getTime()} ORDER BY next_attempt_at LIMIT ${FAIR_SHARE_WINDOW}) AS d
      JOIN ${webhooks} AS w ON w.id = d.webhook_id)
    WHERE n <= ${perAccount} ORDER BY due, id LIMIT ${limit})`;
}

/** The webhooks that claimed deliveries go to: their URL and sealed secret. */
export async function webhookTargets(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: webhooks.id,
      url: webhooks.url,
      secretEncrypted: webhooks.secretEncrypted,
      consecutiveFailures: webhooks.consecutiveFailures,
    })
    .from(webhooks)
    .where(inArray(webhooks.id, ids));
}

/** Seals a webhook's secret again under the current APP_SECRET (after a rotation). */
export async function resealWebhookSecret(db: Db, keys: SecretKeys, id: string, secret: string): Promise<void> {
  await db
    .update(webhooks)
    .set({ secretEncrypted: await encryptSecret(keys.current, secret) })
    .where(eq(webhooks.id, id));
}

/** After a rotation of APP_SECRET: every webhook secret still under the previous secret, sealed again (lib/reseal.ts). */
export function resealAllWebhookSecrets(db: Db, keys: SecretKeys, pageSize = 200) {
  return resealColumn<string>(
    keys,
    (after, limit) =>
      db
        .select({ id: webhooks.id, sealed: webhooks.secretEncrypted })
        .from(webhooks)
        .where(after === undefined ? undefined : gt(webhooks.id, after))
        .orderBy(asc(webhooks.id))
        .limit(limit),
    (id, plaintext) => resealWebhookSecret(db, keys, id, plaintext),
    pageSize,
  );
}

/** What one attempt came to. */
export interface AttemptRecord {
  id: number;
  /** The lease the sender claimed the delivery with: a record from a sender whose lease ran out is dropped. */
  leaseUntil: Date;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  lastAttemptAt: Date;
  nextAttemptAt: Date | null;
}

/**
 * Records attempts, in one batch, and each webhook's run of failures: a delivered attempt ends it, a failed one
 * adds to it (records in the order attempted).
 */
export async function recordAttempts(db: Db, records: (AttemptRecord & { webhookId: string })[]): Promise<void> {
  const runs = new Map<string, { delivered: boolean; failuresAfter: number }>();
  for (const r of records) {
    const run = runs.get(r.webhookId) ?? { delivered: false, failuresAfter: 0 };
    if (r.status === "delivered") runs.set(r.webhookId, { delivered: true, failuresAfter: 0 });
    else runs.set(r.webhookId, { ...run, failuresAfter: run.failuresAfter + 1 });
  }
  const [first, ...rest] = [
    ...records.map(({ id, leaseUntil, webhookId: _, ...state }) =>
      db
        .update(webhookDeliveries)
        .set(state)
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.nextAttemptAt, leaseUntil))),
    ),
    ...[...runs].map(([webhookId, run]) =>
      db
        .update(webhooks)
        .set({
          consecutiveFailures: run.delivered
            ? run.failuresAfter
            : sql`${webhooks.consecutiveFailures} + ${run.failuresAfter}`,
        })
        .where(eq(webhooks.id, webhookId)),
    ),
  ];
  if (first) await db.batch([first, ...rest]);
}

/**
 * Deletes deliveries made before `before`, oldest first, `chunk` at a time over `webhook_deliveries_created_idx`,
 * at most `maxChunks` chunks per call (what remains, the next day's call takes). Answers how many went.
 */
export async function purgeDeliveries(db: Db, before: Date, chunk = 5_000, maxChunks = 50): Promise<number> {
  let purged = 0;
  for (let i = 0; i < maxChunks; i++) {
    const old = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(lt(webhookDeliveries.createdAt, before))
      .orderBy(asc(webhookDeliveries.createdAt))
      .limit(chunk);
    const { meta } = await db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, old)).run();
    purged += meta.changes;
    if (meta.changes < chunk) break;
  }
  return purged;
}
