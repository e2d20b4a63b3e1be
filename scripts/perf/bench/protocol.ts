/**
 * @module What the bench (Node) and its Worker entry (workerd) agree on: the bench-only paths and headers, the
 * counts of billed binding calls, the simulation's requests and reports, and the HTML.
 */
export const ROUTES = {
  /** (a) a constant 1 KB answer. */
  constant: "/__bench/constant",
  /** (b) the content lookup alone: `?u=<user id>&url=<page URL>`. */
  lookup: "/__bench/lookup",
  /** (c) the constant answer plus one analytics message: `?u=<user id>&url=<page URL>&m=<mapping id>`. */
  enqueue: "/__bench/enqueue",
  /** POST `?u=<user id>`: writes the customer's delivery entries from D1 (the real rebuild), answers its result. */
  rebuild: "/__bench/rebuild",
  /** GET: the D1 rows the analytics consumer and the fold have written so far, from D1's own `meta` (a D1Meter). */
  d1Writes: "/__bench/d1-writes",
  /** POST `?now=<epoch ms>`: purges the raw window as the daily cron would at that time, answers rows deleted. */
  purge: "/__bench/purge",
  /**
   * POST: the minute cron's fold of the pending page views (worker/analytics/fold.ts), with D1 counted as the
   * consumer's and failing as `fault` says; answers the views folded, or 503 when the fold failed.
   */
  fold: "/__bench/fold",
  /** POST `?fault=none|down|flaky`: how D1 fails from now on, for requests and the queue consumer alike. */
  d1Fault: "/__bench/d1-fault",
  /**
   * POST: restarts every page view relay (worker/delivery/page-view-relay.ts) as the platform may, dropping the
   * bundles it holds; answers how many were restarted. Their senders must send those bundles themselves.
   */
  relayRestart: "/__bench/relay-restart",
  /** POST: restarts every analytics reducer (npm run faults); answers how many. They read back what they held. */
  reducerRestart: "/__bench/reducer-restart",
  /** GET `?source=<name>`: the counts of billed binding calls booked to that source so far (a Counts). */
  meter: "/__bench/meter",
  /** POST `[{ u, url }]` (normalised URLs): writes the customers' states and these URL entries (the real writers). */
  store: "/__bench/store",
  /** GET: how long a location's cache keeps each kind of delivery entry (a CacheLifetimes). */
  cacheLifetimes: "/__bench/cache-lifetimes",
  /** POST: marks this month's pass of old per-URL days (worker/analytics/url-months.ts) done, as on a steady day. */
  monthPassDone: "/__bench/month-pass-done",
  /** POST a SimulationSpec: starts a simulated stretch of traffic on a virtual clock (simulation.mts). */
  simStart: "/__bench/sim/start",
  /** POST `{ until }` (virtual epoch ms) or `{ batches }`: runs the simulation on; answers its progress. */
  simAdvance: "/__bench/sim/advance",
  /** POST: delivers what is still queued, runs the daily cron and the later purge; answers a SimulationReport. */
  simFinish: "/__bench/sim/finish",
  /** POST `?u=&url=&calls=&rounds=`: times the real /api/content against a constant route in-isolate (a CpuReport). */
  cpu: "/__bench/cpu",
  /** POST `?u=`: the customer's API key, made by the real code (models/api-keys.ts), for the bench's readers. */
  apiKey: "/__bench/api-key",
  /** POST `{ site, page }`: the real edge proxy's answer for the page of the website `site` (an EdgeHost). */
  edgePage: "/__bench/edge-page",
  /** POST `[{ hostname, userId, origin }]`: writes these edge websites' host entries (the real writer). */
  edgeHosts: "/__bench/edge-hosts",
  /**
   * GET `?host=&visitor=`: a same-host subresource of an edge page reaching the Worker: the host's entry and its
   * customer's state read as host-routing.ts reads them (counted as a fetch; the origin is not asked).
   */
  edgeAsset: "/__bench/edge-asset",
  /**
   * GET `?u=&at=<virtual epoch ms>`: what `GET /api/analytics` (its default first page) would do for the customer at
   * that time (not counted: a peek and reads, no write): add held counts (`settle` null) or settle, and why (a
   * ListSettleReason).
   */
  listOverlay: "/__bench/list-overlay",
  /** GET: the reducers' settles asked during the readers' requests so far, by "<meter source> <path>" (ReadSettles). */
  readSettles: "/__bench/read-settles",
  /** (d) the real content endpoint of the Hono app. */
  content: "/api/content",
} as const;

/** The reducers' settles asked during readers' requests, by "<meter source> <path>" (ROUTES.readSettles). */
export type ReadSettles = Record<string, number>;

/** Request headers the entry reads before the app sees a request. */
export const HEADERS = {
  /** The source the request's binding calls are booked to (default "fetch"). */
  meter: "X-Bench-Meter",
  /** The isolate's `Date.now()` while the request runs (virtual epoch ms), so that the memo sees simulated time. */
  clock: "X-Bench-Clock",
  /** The simulated location (0..299) whose Cache API the request uses (locations.mts). */
  location: "X-Bench-Location",
  /** The simulated isolate of that location whose memo the request uses (memo-lanes.mts). */
  isolate: "X-Bench-Isolate",
  /** On the edge sample's answer: the same-host subresource URLs left in it (countSameHostSubresources). */
  subresourcesLeft: "X-Bench-Subresources-Left",
} as const;

/** What a browser sends, so that analytics events (and their bytes in queue, D1 and R2) are as large as real ones. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
export const BROWSER_REFERER = "https://www.shop.example/";

/**
 * What the bench counts at the bindings, per source (an invocation kind or a part of the simulation). Worker
 * invocations: `fetch`, `queue`, `scheduled`. KV: keys read (get, getWithMetadata), lists, writes (put), deletes.
 * Of the keys read, those of customers' states (`s:`), URL entries (`u:`) and edge websites' hosts (`e:`), for information.
 * Queues: messages sent, their bytes, and billed operations (one per 64 KB chunk written, read and deleted). D1:
 * calls (round trips), statements, rows read and written (each statement's `meta`). R2 by class (A: put, list,
 * multipart; B: get, head; free: delete). Durable Objects: requests (stub fetch or RPC calls), the storage rows
 * the objects report, and the milliseconds the reducers spent in their calls (billed duration; wall-clock here). Analytics Engine: data points written.
 * Cache API (free; for information): matches, of them hits, puts and deletes (locations.mts).
 */
export const COUNT_KEYS = [
  "fetch",
  "queue",
  "scheduled",
  "kvReads",
  "kvStateReads",
  "kvUrlReads",
  "kvEdgeHostReads",
  "kvLists",
  "kvWrites",
  "kvDeletes",
  "rateLimitCalls",
  "queueMessages",
  "queueBytes",
  "queueOps",
  "d1Calls",
  "d1Statements",
  "d1RowsRead",
  "d1RowsWritten",
  "r2ClassA",
  "r2ClassB",
  "r2Free",
  "doRequests",
  "doRowsRead",
  "doRowsWritten",
  "doActiveMs",
  "aePoints",
  "cacheMatches",
  "cacheHits",
  "cachePuts",
  "cacheDeletes",
] as const;
export type CountKey = (typeof COUNT_KEYS)[number];
export type Counts = Record<CountKey, number>;

/**
 * The longest a location's cache keeps a URL's entry, a customer's state and an edge website's host entry (ms): the
 * last two while the change feed has no change of them (worker/delivery/change-feed.ts).
 */
export interface CacheLifetimes {
  url: number;
  state: number;
  edgeHost: number;
}

export const noCounts = (): Counts => Object.fromEntries(COUNT_KEYS.map((k) => [k, 0])) as Counts;

export function sumCounts(...all: Counts[]): Counts {
  const total = noCounts();
  for (const counts of all) for (const k of COUNT_KEYS) total[k] += counts[k];
  return total;
}

/**
 * Queue operations billed per message for each of write, read and delete: one per 64 KB, a KB being 1,000 bytes,
 * with about 100 bytes of Cloudflare's metadata per message (developers.cloudflare.com, Queues pricing).
 */
export const queueChunks = (bodyBytes: number) => Math.max(1, Math.ceil((bodyBytes + 100) / 64_000));

export interface SimulationSpec {
  label: string;
  /** The realistic platform's (platform-model.ts) first mapping: its mapping ids run in order from it. */
  platformFirstMappingId: number;
  viewsPerMonth: number;
  /** Virtual epoch ms of the first view. */
  startMs: number;
  seed: number;
  /** wrangler.toml's consumer settings of the analytics queue. */
  maxBatchSize: number;
  maxBatchTimeoutMs: number;
  /** When the daily cron runs (minutes after 00:00 UTC), from wrangler.toml's crons. */
  dailyCronMinute: number;
  /** Warm isolates the views spread over: each gathers its views into messages (queue-messages.mts). */
  isolates: number;
  /** Whether `finish` runs the daily cron at the stretch's day boundary and the purge of its raw window later. */
  dayBoundary: boolean;
}

export interface SimulationProgress {
  views: number;
  messages: number;
  batches: number;
  /** Virtual epoch ms the simulation has reached. */
  now: number;
}

export interface SimulationReport extends SimulationProgress {
  /**
   * Billed calls by who made them: the consumer's batches, the minute cron, the daily cron, the purge of this
   * stretch's raw window once the retention has passed (by the daily cron of a week later), the modelled queue.
   */
  counts: Record<"consumer" | "minuteCron" | "dailyCron" | "laterPurge" | "settle" | "queue", Counts>;
  minuteCrons: number;
  dailyCrons: number;
  /** Virtual epoch ms of the daily cron's run. */
  dailyCronAt: number | null;
  /** Batches the consumer retried (redelivered by the model); none is expected. */
  retriedBatches: number;
  /** Messages not acknowledged after the model's retries: lost. */
  lostMessages: number;
  /** Wall-clock ms the consumer took per batch in Miniflare (for information). */
  consumerMsPerBatch: number;
  /** The page view relay's Durable Objects (PAGE_VIEW_RELAY_SHARDS), each billed for duration while active. */
  relayShards: number;
  /** Distinct pages (customer and URL) the stretch's views saw: the sums a reducer settles at its end. */
  pagesSeen: number;
}

export interface CpuReport {
  calls: number;
  rounds: number;
  /** µs per request, one per round. */
  constant: number[];
  contentMemoHit: number[];
  contentMemoMiss: number[];
  /** The memo cold on a URL with 20 audience mappings besides its fallback, none matching (docs/audiences.md). */
  contentAudiencesMemoMiss: number[];
  /** What the stand-ins saw per /api/content call (memo cold): KV reads, Rate Limiting calls, messages, 200 answers. */
  perCall: { kvReads: number; rateLimitCalls: number; messages: number; okAnswers: number };
}
export interface D1Meter {
  rowsWritten: number;
  /** Bytes of the database after the last statement the consumer ran (D1's `size_after`). */
  sizeAfter: number;
  /** Messages that reached the dead-letter queue (counted only when it is consumed: `npm run faults`). */
  deadLettered: number;
  /** D1 calls failed on purpose (ROUTES.d1Fault) before D1 saw them. */
  failedBeforeD1: number;
  /** D1 calls failed on purpose after D1 carried them out: the answer lost on its way back. */
  failedAfterD1: number;
  /** Of those, transactions (`batch()`, as the consumer counts a batch): committed, but the caller saw an error. */
  transactionsFailedAfterD1: number;
}

export const D1_FAULTS = ["none", "down", "flaky"] as const;
export type D1Fault = (typeof D1_FAULTS)[number];
export const isD1Fault = (value: unknown): value is D1Fault => D1_FAULTS.includes(value as D1Fault);

const FILLER = "Fresh content for this page, delivered by the edge. ";

/** The start of mapping n's HTML; `htmlSql` builds the same in SQL. */
const open = (n: number | string) => `<section class="dc-promo" data-n="${n}"><h2>Offer ${n}</h2><p>`;
const CLOSE = `</p></section>`;

/** Exactly `bytes` bytes of ASCII HTML, different per `n`. */
export function html(n: number, bytes: number): string {
  const head = open(n);
  return head + FILLER.repeat(Math.ceil(bytes / FILLER.length)).slice(0, bytes - head.length - CLOSE.length) + CLOSE;
}

/**
 * `html(n, bytes)` as an SQL expression over the integer expression `n`, for seeding in bulk: bind `filler` as the
 * parameter `param` (D1 takes numbered parameters only).
 */
export function htmlSql(n: string, bytes: number, param: string): { sql: string; filler: string } {
  const head = `'${open("' || " + n + " || '")}'`;
  return {
    sql: `${head} || substr(${param}, 1, ${bytes} - length(${head}) - ${CLOSE.length}) || '${CLOSE}'`,
    filler: FILLER.repeat(Math.ceil(bytes / FILLER.length) + 1),
  };
}
