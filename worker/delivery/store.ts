/**
 * @module The delivery store in KV. Per customer one small state entry (active, limited and until when, whether
 * every published URL has its entry); per published URL one entry holding that URL's HTML, with the mapping id
 * in its metadata. No value grows past a bound with the number of a customer's mappings (the state's filter of their
 * URLs stops at 16,384 of them, under 28 KB), so a page view costs the same for a customer with 10 mappings and one
 * with 100,000: two KV reads at most (the state and the URL, in parallel), and no D1 read. What the hot path reads is
 * memoised in the isolate for 5 seconds and kept in the location's cache (location-cache.ts): the state for 30
 * seconds, or up to an hour while the change feed knows it unchanged (change-feed.ts), a URL's entry (or its absence)
 * under the customer's content version for up to an hour (`urlCacheUntil`).
 * When the state is at hand (memo or cache), its filter (published-filter.ts) spares a page without a mapping its
 * URL's read. The writers (sync.ts, repairs.ts, rebuild.ts) keep the store equal to D1; this file holds the formats,
 * the hot path's reads and the writes they all use.
 */
import { prefixCandidates } from "#contract/url-rules";
import { createDb, type Db } from "../db/client";
import type { Env } from "../env";
import { deliveryLimitReached, deliveryLimitStates, isMetered, type DeliveryLimitState } from "../models/limits";
import { isDefaultPlacement, type Placement } from "#contract/placement";
import { hasSeo, type Seo } from "#contract/seo";
import type { Audience } from "#contract/audiences";
import {
  deliverableAt,
  deliveringUrlsPage,
  type AudienceDeliverable,
  type DeliverableMapping,
} from "../models/delivered-mappings";
import { recordChange, stillCurrent } from "./change-feed";
import { KEPT_UNCHANGED_MS, KV_PROPAGATION_MS } from "./change-feed-follower";
import { stateKey, urlKey } from "./keys";
import { dropCached, readCached, writeCached, type Held } from "./location-cache";
import { IsolateMemo, memoBytes } from "./memo";
import { mayBePublished, publishedFilter, PUBLISHED_FILTER_MAX_URLS } from "./published-filter";

export interface CustomerState {
  /** False for unknown, deleted and inactive customers: nothing is delivered or counted. */
  active: boolean;
  /** The period's dynamic-content or request limit is reached: nothing is delivered until it lifts. */
  limited: boolean;
  /**
   * When `limited` lapses by itself: the billing period's end (epoch ms). Past it the customer is served again
   * without any write; the analytics fold then moves the period on and writes the state again.
   */
  limitedUntil?: number;
  /**
   * Every published URL of the customer has its entry, so a URL without one has no mapping. False while entries
   * written before this store are missing (until `npm run delivery:rebuild`): a miss is then looked up in D1.
   */
  complete: boolean;
  /**
   * The hostnames of the customer's edge websites (absent when none): their pages' first loads are counted by the
   * edge proxy, so a snippet there that asks on first load is answered but not counted again.
   */
  edgeHosts?: string[];
  /**
   * The depths at which the customer has published prefix mappings (absent when none): a URL without an exact
   * entry probes its own prefixes at these depths only (docs/url-rules.md).
   */
  prefixDepths?: number[];
  /** The customer's own tracking parameters (absent when none), dropped from URLs like the usual ones. */
  ignoredParameters?: string[];
  /**
   * The customer's plan has neither a dynamic-content nor a request limit (`isMetered`): their page views spend no
   * quota, so no visitor's budget is asked (content-route.ts `lookupWithinBudget`). Absent means metered, so that a
   * state written before this flag existed keeps every visitor within their budget.
   */
  unmetered?: true;
  /** The goals the customer's experiments measure (absent when none): `POST /api/goals` counts no other. */
  goals?: string[];
  /**
   * When the customer's URL entries last changed (epoch ms; absent: not since versions exist). The location's cache
   * keeps a URL's entry for this version only (`urlCacheUntil`).
   */
  version?: number;
  /**
   * Which URLs (and prefixes) may have an entry (published-filter.ts), written with every state of an active
   * customer whose store is complete and who has at most `PUBLISHED_FILTER_MAX_URLS` of them; absent: any may.
   */
  published?: string;
}

/** What one URL delivers. */
export interface DeliveredMapping {
  mappingId: number;
  html: string;
  /** Absent: the top of <body>. */
  placement?: Placement;
  /** Absent: nothing set in <head>. */
  seo?: Seo;
  /** The experiment the mapping runs (docs/experiments.md); the fields above are its control's. */
  experiment?: DeliveredExperiment;
  /** An audience mapping's holdout (docs/audiences.md, "Holdout"): its run and the percent shown the fallback. */
  holdout?: DeliveredHoldout;
}

export interface DeliveredHoldout {
  id: string;
  share: number;
}

/** A mapping of a URL that has audience mappings: its audience, or null for the URL's fallback. */
export type DeliveredCandidate = DeliveredMapping & { audience: Audience | null };

/**
 * What a URL with audience mappings delivers (docs/audiences.md): its mappings in the order they are tried, the
 * audience ones by priority and the fallback (if any) last; the visitor's attributes choose among them.
 */
export interface DeliveredAudiences {
  ordered: DeliveredCandidate[];
}

/** What a URL's entry delivers: one mapping to everyone, or a choice by audience. */
export type DeliveredEntry = DeliveredMapping | DeliveredAudiences;

export const isAudienceEntry = (entry: DeliveredEntry): entry is DeliveredAudiences => "ordered" in entry;

/** A variant as delivered: its own content, placement and SEO fields, each the mapping's where it has none. */
export interface DeliveredVariant {
  key: string;
  weight: number;
  html: string;
  placement?: Placement;
  seo?: Seo;
}

export interface DeliveredExperiment {
  id: string;
  /** The first is the control. */
  variants: DeliveredVariant[];
}

/**
 * A URL entry's metadata: the mapping id, or null for "no mapping" (only in entries filled from D1). The value is
 * the HTML itself, or, with `x: 1` (a mapping with a placement or SEO fields), the JSON of an `ExtendedEntry`:
 * entries of mappings without extras stay as they were before extras existed. With `x: 2` (a URL with audience
 * mappings) the value is the JSON of an `AudienceEntry` and `m` the fallback's id, else the first audience mapping's.
 */
interface UrlEntryMetadata {
  m: number | null;
  x?: 1 | 2;
}

/** A URL's audience mappings in the order they are tried (`c` each one's audience), and its fallback. */
interface AudienceEntry {
  a: (ExtendedEntry & { m: number; c: Audience })[];
  f?: ExtendedEntry & { m: number };
}

interface ExtendedEntry {
  html: string;
  placement?: Placement;
  seo?: Seo;
  experiment?: DeliveredExperiment;
  holdout?: DeliveredHoldout;
}

/** Placement and SEO fields, where they differ from the defaults. */
function placementAndSeo(placement: Placement | null | undefined, seo: Seo | null | undefined) {
  return {
    ...(isDefaultPlacement(placement) ? {} : { placement: placement! }),
    ...(hasSeo(seo) ? { seo: seo! } : {}),
  };
}

/** Each variant whole, so that the hot path picks one without merging anything. */
function deliveredExperiment(mapping: DeliverableMapping): DeliveredExperiment | undefined {
  const experiment = mapping.experiment;
  if (!experiment) return undefined;
  return {
    id: experiment.id,
    variants: experiment.variants.map((v, i) => ({
      key: v.key,
      weight: v.weight,
      html: i === 0 ? mapping.htmlContent : (v.htmlContent ?? mapping.htmlContent),
      ...placementAndSeo(v.placement ?? mapping.placement, v.seo ?? mapping.seo),
    })),
  };
}

/** A mapping's placement, SEO fields, experiment and holdout, where it has them. */
function extrasOf(mapping: DeliverableMapping): Omit<ExtendedEntry, "html"> {
  const experiment = deliveredExperiment(mapping);
  const holdout = mapping.holdout;
  return {
    ...placementAndSeo(mapping.placement, mapping.seo),
    ...(experiment ? { experiment } : {}),
    ...(holdout ? { holdout: { id: holdout.id, share: holdout.share } } : {}),
  };
}

/** A URL's entry in KV: its value and metadata; its fallback `mapping` alone unless it has audience mappings. */
function encodeUrlEntry(
  mapping: DeliverableMapping | undefined,
  audiences: readonly AudienceDeliverable[],
): { value: string; metadata: UrlEntryMetadata } {
  if (audiences.length > 0) {
    const entry: AudienceEntry = {
      a: audiences.map((m) => ({ m: m.id, c: m.audience, html: m.htmlContent, ...extrasOf(m) })),
      ...(mapping ? { f: { m: mapping.id, html: mapping.htmlContent, ...extrasOf(mapping) } } : {}),
    };
    return { value: JSON.stringify(entry), metadata: { m: mapping?.id ?? audiences[0]!.id, x: 2 } };
  }
  if (!mapping) throw new Error("A URL entry needs a mapping");
  const extras = extrasOf(mapping);
  if (Object.keys(extras).length === 0) return { value: mapping.htmlContent, metadata: { m: mapping.id } };
  const entry: ExtendedEntry = { html: mapping.htmlContent, ...extras };
  return { value: JSON.stringify(entry), metadata: { m: mapping.id, x: 1 } };
}

/** What a KV entry delivers: a mapping, a choice by audience, or null for a filled "no mapping". */
export function decodeUrlEntry(value: string, metadata: UrlEntryMetadata | null): DeliveredEntry | null {
  if (!metadata?.m) return null;
  if (metadata.x === 2) {
    const { a, f } = JSON.parse(value) as AudienceEntry;
    const ordered: DeliveredCandidate[] = a.map(({ m, c, ...rest }) => ({ mappingId: m, audience: c, ...rest }));
    if (f) {
      const { m, ...rest } = f;
      ordered.push({ mappingId: m, audience: null, ...rest });
    }
    return { ordered };
  }
  if (metadata.x !== 1) return { mappingId: metadata.m, html: value };
  return { mappingId: metadata.m, ...(JSON.parse(value) as ExtendedEntry) };
}

export const deliveredFromMapping = (mapping: DeliverableMapping): DeliveredMapping => ({
  mappingId: mapping.id,
  html: mapping.htmlContent,
  ...extrasOf(mapping),
});

/** What a URL delivers, as the hot path holds it: null when nothing. */
export function deliveredFromUrl(
  mapping: DeliverableMapping | undefined,
  audiences: readonly AudienceDeliverable[],
): DeliveredEntry | null {
  if (audiences.length === 0) return mapping ? deliveredFromMapping(mapping) : null;
  const ordered: DeliveredCandidate[] = audiences.map((m) => ({ ...deliveredFromMapping(m), audience: m.audience }));
  if (mapping) ordered.push({ ...deliveredFromMapping(mapping), audience: null });
  return { ordered };
}

/** What a delivered entry takes in the isolate's memo. */
const deliveredBytes = (key: string, delivered: DeliveredEntry | null) =>
  delivered && isAudienceEntry(delivered)
    ? memoBytes(key, JSON.stringify(delivered))
    : deliveredMappingBytes(key, delivered);

const deliveredMappingBytes = (key: string, delivered: DeliveredMapping | null) =>
  memoBytes(
    key,
    delivered?.html ?? "",
    delivered?.seo ? JSON.stringify(delivered.seo) : "",
    delivered?.experiment ? JSON.stringify(delivered.experiment) : "",
  );

export const NOT_A_CUSTOMER: CustomerState = { active: false, limited: false, complete: true };

/** How long an isolate trusts what it read. */
const MEMO_MS = 5_000;
/**
 * How long a location keeps a customer's state by itself; longer while the change feed knows it unchanged
 * (change-feed.ts). A writer's own location forgets it at once.
 */
export const STATE_CACHE_MS = 30_000;
/** How long a location keeps a URL's entry read under a content version older than KV's propagation. */
export const URL_CACHE_MS = 3_600_000;
/**
 * By when a change written now is served everywhere: KV's propagation, then the state's cache and memo, then the
 * memo of a URL's entry read under the old state.
 */
export const PROPAGATION_MS = KV_PROPAGATION_MS + STATE_CACHE_MS + 2 * MEMO_MS;

/**
 * Until when a location keeps a URL's entry read from KV at `now` under content `version`. KV may answer the value
 * from before the version for up to its propagation time after the version was set, so such an entry is kept no
 * longer than that; once the version is older, KV answers the value of the version (or a newer one) and the entry is
 * kept for the long time. A newer version makes it unusable (`usableCached`).
 */
export function urlCacheUntil(version: number, now: number): number {
  const settled = version + KV_PROPAGATION_MS;
  return now < settled ? settled : now + URL_CACHE_MS;
}

/** A customer's state as a location keeps it: with when it was read from KV (or D1). */
interface KeptState {
  state: CustomerState;
  readAt: number;
}

/** A URL's entry as a location keeps it: what it delivers (null: nothing) and the content version it was read under. */
interface CachedUrl {
  v: number;
  e: DeliveredEntry | null;
}
const stateMemo = new IsolateMemo<CustomerState>(MEMO_MS, 2 * 1024 * 1024);
const urlMemo = new IsolateMemo<DeliveredEntry | null>(MEMO_MS, 24 * 1024 * 1024);
const STATE_BYTES = memoBytes(
  "s:0123456789abcdef",
  JSON.stringify({ ...NOT_A_CUSTOMER, unmetered: true, version: 1_800_000_000_000 }),
);
/** What a state takes in the memo: most are alike; the lists of edge websites, depths or parameters grow one. */
const stateBytes = (state: CustomerState) =>
  state.edgeHosts || state.prefixDepths || state.ignoredParameters || state.goals || state.published
    ? memoBytes(JSON.stringify(state))
    : STATE_BYTES;

/**
 * Entries the hot path fills from D1 after a miss (unknown customers, customers whose store is incomplete) expire
 * after an hour: only the writers' entries are authoritative, so a fill that raced a change cannot outlive it long.
 */
const FILLED_TTL_S = 3_600;

export function isServing(state: CustomerState, now = Date.now()): boolean {
  return state.active && !(state.limited && (state.limitedUntil === undefined || now < state.limitedUntil));
}

export function customerState(usage: DeliveryLimitState): CustomerState {
  const limited = deliveryLimitReached(usage);
  return {
    active: usage.isActive,
    limited,
    ...(limited && usage.billingPeriodEnd ? { limitedUntil: usage.billingPeriodEnd.getTime() } : {}),
    complete: usage.deliveryStoreComplete,
    ...(usage.edgeHosts.length > 0 ? { edgeHosts: usage.edgeHosts } : {}),
    ...(usage.prefixDepths.length > 0 ? { prefixDepths: usage.prefixDepths } : {}),
    ...(usage.ignoredParameters.length > 0 ? { ignoredParameters: usage.ignoredParameters } : {}),
    ...(isMetered(usage) ? {} : { unmetered: true }),
    ...(usage.goals.length > 0 ? { goals: usage.goals } : {}),
    ...(usage.contentVersion > 0 ? { version: usage.contentVersion } : {}),
  };
}

/**
 * The customer's state as D1 has it; null for a customer that does not exist. With `published`, the filter of their
 * URLs with entries too (a range of `url_mappings`, at most `PUBLISHED_FILTER_MAX_URLS` + 1 rows): the writers'
 * states have it, the hot path's fills do without.
 */
export async function stateFromD1(db: Db, userId: string, { published = false } = {}): Promise<CustomerState | null> {
  const [usage] = await deliveryLimitStates(db, [userId]);
  if (!usage) return null;
  const state = customerState(usage);
  if (!published || !state.active || !state.complete) return state;
  const urls = await deliveringUrlsPage(db, userId, "", PUBLISHED_FILTER_MAX_URLS + 1);
  return urls.length > PUBLISHED_FILTER_MAX_URLS ? state : { ...state, published: publishedFilter(urls) };
}

export function sameState(a: CustomerState | null, b: CustomerState | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const urlMemoKey = (userId: string, normalizedUrl: string) => `${userId} ${normalizedUrl}`;

/** Writes the customer's state (`null`: no such customer, remembered for an hour). */
export async function writeState(env: Env, userId: string, state: CustomerState | null, now = Date.now()) {
  const value = state ?? NOT_A_CUSTOMER;
  await env.DELIVERY.put(stateKey(userId), JSON.stringify(value), state ? undefined : { expirationTtl: FILLED_TTL_S });
  await recordChange(env, stateKey(userId), now);
  stateMemo.set(userId, value, stateBytes(value), now);
  // This location serves the change at once; others once KV and their cache of the state let it through.
  await dropCached(env, stateKey(userId));
}

/**
 * Writes what one URL delivers: its fallback mapping and its audience mappings (docs/audiences.md), or no entry at
 * all when no mapping is published there.
 */
export async function writeUrlEntry(
  env: Env,
  userId: string,
  normalizedUrl: string,
  mapping: DeliverableMapping | undefined,
  audiences: readonly AudienceDeliverable[] = [],
  now = Date.now(),
) {
  const key = await urlKey(userId, normalizedUrl);
  if (mapping || audiences.length > 0) {
    const { value, metadata } = encodeUrlEntry(mapping, audiences);
    await env.DELIVERY.put(key, value, { metadata });
  } else {
    await env.DELIVERY.delete(key);
  }
  const memoKey = urlMemoKey(userId, normalizedUrl);
  const delivered = deliveredFromUrl(mapping, audiences);
  urlMemo.set(memoKey, delivered, deliveredBytes(memoKey, delivered), now);
}

/** The mapping id held by each listed URL entry (a rebuild compares them with D1 without reading the values). */
export function listedMappingId(key: { metadata?: unknown }): number | null {
  return (key.metadata as UrlEntryMetadata | undefined)?.m ?? null;
}

/** A fill must never fail a page view: the entry is written again on the next miss. */
async function fill(env: Env, key: string, value: string, options: KVNamespacePutOptions) {
  try {
    await env.DELIVERY.put(key, value, { ...options, expirationTtl: FILLED_TTL_S });
  } catch (err) {
    console.error("Delivery store fill failed", err);
  }
}

/**
 * Whether the visitor may make the hot path read D1 and fill KV once more. Only misses get here (an id the store
 * does not know, a URL of an incomplete store), so a real visitor hardly ever does; someone requesting random ids
 * or URLs would otherwise cost us a D1 read and a KV write ($5 per million) per request.
 */
async function mayFill(env: Env, visitor: string): Promise<boolean> {
  return (await env.HOT_PATH_FILL_LIMITER.limit({ key: visitor })).success;
}

/** The customer's state if this isolate read or wrote it within the memo's time: known before any I/O. */
export function rememberedState(userId: string, now = Date.now()): CustomerState | undefined {
  return stateMemo.get(userId, now);
}

/** The customer's state if this isolate remembers it or the location keeps it: no KV read. */
async function keptState(env: Env, userId: string, now: number): Promise<CustomerState | undefined> {
  const memoed = stateMemo.get(userId, now);
  if (memoed) return memoed;
  const key = stateKey(userId);
  const kept = (await readCached<KeptState>(env, key, now))?.value;
  if (!kept?.state || !stillCurrent(key, kept.readAt, now, STATE_CACHE_MS)) return undefined;
  stateMemo.set(userId, kept.state, stateBytes(kept.state), now);
  return kept.state;
}

/** The customer's state from KV (else, within the visitor's budget, from D1), kept at the location and remembered. */
async function stateFromKv(env: Env, userId: string, now: number, visitor: string): Promise<CustomerState> {
  const key = stateKey(userId);
  let state = await env.DELIVERY.get<CustomerState>(key, "json");
  let keptFor = KEPT_UNCHANGED_MS;
  if (!state) {
    // Past the visitor's budget nothing is served, remembered or written; the next visitor looks it up.
    if (!(await mayFill(env, visitor))) return NOT_A_CUSTOMER;
    const known = await stateFromD1(createDb(env.DB), userId);
    // An id nobody has costs no KV write (made-up ids would otherwise fill KV at $5 a million): only this
    // location remembers it, for the cache's 30 seconds.
    if (known) await fill(env, key, JSON.stringify(known), {});
    else keptFor = STATE_CACHE_MS;
    state = known ?? NOT_A_CUSTOMER;
  }
  await writeCached<KeptState>(env, key, { state, readAt: now }, now, now + keptFor);
  stateMemo.set(userId, state, stateBytes(state), now);
  return state;
}

/**
 * The customer's state: remembered, else from the location's cache, else from KV (else, within the visitor's budget,
 * from D1).
 */
export async function readState(env: Env, userId: string, now: number, visitor: string): Promise<CustomerState> {
  return (await keptState(env, userId, now)) ?? stateFromKv(env, userId, now, visitor);
}

/** The entry at `key`: a mapping, null (a filled "no mapping"), or undefined when the store holds no entry. */
async function readUrlEntry(env: Env, key: string) {
  const { value, metadata } = await env.DELIVERY.getWithMetadata<UrlEntryMetadata>(key, "text");
  if (value === null) return undefined;
  return decodeUrlEntry(value, metadata);
}

/** Looks a URL up in D1 (customers whose store is incomplete) and fills its entry for an hour. */
async function fillUrlEntry(env: Env, userId: string, normalizedUrl: string): Promise<DeliveredEntry | null> {
  const { fallback, audiences } = await deliverableAt(createDb(env.DB), userId, normalizedUrl);
  const key = await urlKey(userId, normalizedUrl);
  if (!fallback && audiences.length === 0) {
    await fill(env, key, "", { metadata: { m: null } satisfies UrlEntryMetadata });
    return null;
  }
  const { value, metadata } = encodeUrlEntry(fallback, audiences);
  await fill(env, key, value, { metadata });
  return deliveredFromUrl(fallback, audiences);
}

export interface Delivery {
  state: CustomerState;
  /** What the URL delivers; always null when the customer is not served. */
  match: DeliveredEntry | null;
}

/**
 * A URL entry as the isolate remembers it, as the location's cache holds it (with its content version), or as KV
 * holds it (undefined: no entry).
 */
type Read =
  | { from: "memo"; entry: DeliveredEntry | null }
  | { from: "cache"; key: string; cached: Held<CachedUrl> }
  | { from: "kv"; key: string; entry: DeliveredEntry | null | undefined };

/**
 * Reads a URL's entry without waiting for the state, so that the state's read and the URL's go at once: the memo,
 * else the location's cache (whose version `settleEntry` checks against the state's), else KV.
 */
async function readEntry(env: Env, userId: string, normalizedUrl: string, now: number): Promise<Read> {
  const memoed = urlMemo.get(urlMemoKey(userId, normalizedUrl), now);
  if (memoed !== undefined) return { from: "memo", entry: memoed };
  const key = await urlKey(userId, normalizedUrl);
  const cached = await readCached<CachedUrl>(env, key, now);
  if (cached) return { from: "cache", key, cached };
  return { from: "kv", key, entry: await readUrlEntry(env, key) };
}

/** Whether the state's filter lets a URL (or prefix) through to its read: always without a state or a filter. */
const mayHaveEntry = (state: CustomerState | undefined, url: string) =>
  !state?.published || mayBePublished(state.published, url);

/** A kept entry serves the state's content version, or a newer one (read by an isolate that knew it first). */
const usableCached = (cached: CachedUrl, state: CustomerState) =>
  state.version !== undefined && cached.v >= state.version;

/**
 * What a read says the URL delivers, remembered in the isolate and, under the state's content version, at the
 * location; a kept entry of an older version is read again from KV; a miss of an incomplete store is looked up in D1.
 */
async function settleEntry(
  env: Env,
  userId: string,
  normalizedUrl: string,
  read: Read,
  state: CustomerState,
  now: number,
  visitor: string,
): Promise<DeliveredEntry | null> {
  if (read.from === "memo") return read.entry;
  const memoKey = urlMemoKey(userId, normalizedUrl);
  if (read.from === "cache" && usableCached(read.cached.value, state)) {
    const { until, value } = read.cached;
    // Remembered no longer than kept: an entry read while KV may still answer the old one lapses on time.
    urlMemo.set(memoKey, value.e, deliveredBytes(memoKey, value.e), now, until);
    return value.e;
  }
  const entry = read.from === "kv" ? read.entry : await readUrlEntry(env, read.key);
  let match: DeliveredEntry | null;
  if (entry !== undefined || state.complete) match = entry ?? null;
  else if (await mayFill(env, visitor)) match = await fillUrlEntry(env, userId, normalizedUrl);
  else return null;
  if (state.version === undefined) {
    urlMemo.set(memoKey, match, deliveredBytes(memoKey, match), now);
    return match;
  }
  const until = urlCacheUntil(state.version, now);
  urlMemo.set(memoKey, match, deliveredBytes(memoKey, match), now, until);
  await writeCached<CachedUrl>(env, read.key, { v: state.version, e: match }, now, until);
  return match;
}

/**
 * The hot path: the customer's state and what their normalised URL delivers (docs/url-rules.md: its exact entry,
 * else its longest prefix among the depths the customer uses). `visitor` (the client's IP) is charged for lookups
 * in D1 (see `mayFill`).
 */
export async function lookupDelivery(
  env: Env,
  userId: string,
  normalizedUrl: string,
  now = Date.now(),
  visitor = "unknown",
): Promise<Delivery> {
  const kept = await keptState(env, userId, now);
  if (kept && !isServing(kept, now)) return { state: kept, match: null };
  // Without the state at hand both reads go at once: one KV round trip. The URL read is wasted only for customers
  // who are not served. With it, a URL its filter rules out is not read at all.
  const [state, exactRead] = await Promise.all([
    kept ?? stateFromKv(env, userId, now, visitor),
    mayHaveEntry(kept, normalizedUrl) ? readEntry(env, userId, normalizedUrl, now) : null,
  ]);
  if (!isServing(state, now)) return { state, match: null };
  const exact = exactRead && (await settleEntry(env, userId, normalizedUrl, exactRead, state, now, visitor));
  if (exact || !state.prefixDepths) return { state, match: exact };
  // The URL's own prefixes at the customer's depths, all at once (one more round trip), the longest that has one.
  const prefixes = prefixCandidates(normalizedUrl, state.prefixDepths).filter((prefix) => mayHaveEntry(state, prefix));
  const found = await Promise.all(
    prefixes.map(async (prefix) =>
      settleEntry(env, userId, prefix, await readEntry(env, userId, prefix, now), state, now, visitor),
    ),
  );
  return { state, match: found.find((m) => m !== null) ?? null };
}
