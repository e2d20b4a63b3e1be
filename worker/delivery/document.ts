/**
 * @module The delivery document: one KV value per customer holding what the content endpoint needs, so the hot
 * path reads one key. It is rewritten on every change (write-through), memoised per isolate for a few seconds,
 * and rebuilt from D1 on a KV miss.
 */
import { createDb } from "../db/client";
import type { Env } from "../env";
import { listPublishedMappings } from "../models/mappings";
import { deliveryLimitReached, deliveryLimitStates } from "../models/limits";

export interface DeliveredMapping {
  /** The mapping's id, for analytics. */
  i: number;
  /** Its HTML. */
  h: string;
}

export interface DeliveryDocument {
  /** False for unknown and inactive customers: they get nothing. */
  active: boolean;
  /** True once the period's dynamic-content or request limit is reached: nothing is delivered until it resets. */
  limited: boolean;
  /**
   * When `limited` ends by itself: the billing period's end (epoch ms). Past it the customer is served again
   * without any write; the analytics consumer then moves the period on and rewrites the document.
   */
  limitedUntil?: number;
  /** Published mappings by normalised URL; where two share a URL, the newest wins. */
  mappings: Record<string, DeliveredMapping>;
}

const MEMO_MS = 5_000;
const MEMO_MAX_ENTRIES = 10_000;
/** Unknown ids are remembered in KV for a while so that they cost no D1 read each time. */
const UNKNOWN_TTL_S = 3_600;
const memo = new Map<string, { doc: DeliveryDocument; until: number }>();

const kvKey = (userId: string) => `doc:${userId}`;
const NOTHING_TO_DELIVER: DeliveryDocument = { active: false, limited: false, mappings: {} };

/** Whether the document delivers anything at all at `now`. */
export const isServing = (doc: DeliveryDocument, now = Date.now()) =>
  doc.active && !(doc.limited && (doc.limitedUntil === undefined || now < doc.limitedUntil));

export async function buildDocument(env: Env, userId: string): Promise<DeliveryDocument | null> {
  const db = createDb(env.DB);
  const [[state], published] = await Promise.all([
    deliveryLimitStates(db, [userId]),
    listPublishedMappings(db, userId),
  ]);
  if (!state) return null;
  const mappings: Record<string, DeliveredMapping> = {};
  for (const m of published) mappings[m.normalizedUrl] ??= { i: m.id, h: m.htmlContent };
  const limited = deliveryLimitReached(state);
  const limitedUntil = limited && state.billingPeriodEnd ? state.billingPeriodEnd.getTime() : undefined;
  return { active: state.isActive, limited, ...(limitedUntil ? { limitedUntil } : {}), mappings };
}

function remember(userId: string, doc: DeliveryDocument, now: number) {
  if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
  memo.set(userId, { doc, until: now + MEMO_MS });
}

/** Rebuilds the customer's document from D1 and stores it: call after every change that affects delivery. */
export async function writeDocument(env: Env, userId: string): Promise<DeliveryDocument> {
  const doc = (await buildDocument(env, userId)) ?? NOTHING_TO_DELIVER;
  await env.DELIVERY.put(kvKey(userId), JSON.stringify(doc));
  remember(userId, doc, Date.now());
  return doc;
}

/** `writeDocument` for several customers (after a plan they share changed). */
export async function writeDocuments(env: Env, userIds: string[]): Promise<void> {
  await Promise.all(userIds.map((id) => writeDocument(env, id)));
}

export async function deleteDocument(env: Env, userId: string): Promise<void> {
  memo.delete(userId);
  await env.DELIVERY.delete(kvKey(userId));
}

/** Rewrites the documents whose limit state no longer matches the counters (after analytics were counted). */
export async function refreshLimitStates(env: Env, userIds: string[]): Promise<void> {
  const states = await deliveryLimitStates(createDb(env.DB), userIds);
  await Promise.all(
    states.map(async (state) => {
      const stored = await env.DELIVERY.get<DeliveryDocument>(kvKey(state.userId), "json");
      if (!stored || stored.limited !== deliveryLimitReached(state)) await writeDocument(env, state.userId);
    }),
  );
}

export async function readDocument(env: Env, userId: string, now = Date.now()): Promise<DeliveryDocument> {
  const cached = memo.get(userId);
  if (cached && cached.until > now) return cached.doc;
  let doc = await env.DELIVERY.get<DeliveryDocument>(kvKey(userId), "json");
  if (!doc) {
    const built = await buildDocument(env, userId);
    doc = built ?? NOTHING_TO_DELIVER;
    await env.DELIVERY.put(kvKey(userId), JSON.stringify(doc), built ? {} : { expirationTtl: UNKNOWN_TTL_S });
  }
  remember(userId, doc, now);
  return doc;
}
