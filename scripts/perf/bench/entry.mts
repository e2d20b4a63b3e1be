/**
 * @module The bench's own Worker entry (never deployed): it wraps the real modules so that `npm run bench` can
 * compare the hot path with constant routes in one runtime, count what the real code spends at its bindings, and
 * drive a simulated stretch of traffic through the real consumer and crons. Production code carries no bench routes.
 *
 *   GET  /__bench/constant             (a) a constant 1 KB answer
 *   GET  /__bench/lookup?u=&url=       (b) the content lookup alone: lookupContent and its answer
 *   GET  /__bench/enqueue?u=&url=&m=   (c) the constant 1 KB answer plus one analytics message in waitUntil
 *   POST /__bench/rebuild?u=           writes a customer's delivery entries with the real rebuild (after seeding)
 *   GET  /__bench/d1-writes            D1 rows the analytics consumer wrote, from D1's own meta
 *   GET  /__bench/meter?source=        the billed binding calls booked to a source so far
 *   POST /__bench/store                writes the listed customers' states and URL entries (the real writers)
 *   GET  /__bench/cache-lifetimes      how long a location's cache keeps each kind of delivery entry
 *   POST /__bench/sim/start|advance|finish   the simulated stretch of traffic (simulation.mts)
 *   POST /__bench/cpu?u=&url=&calls=&rounds=  CPU per /api/content against a constant route (cpu.mts)
 *   POST /__bench/purge?now=           the daily cron's purge of the ledger, as at that time
 *   POST /__bench/fold                 the minute cron's fold of the pending page views into the counters
 *   POST /__bench/d1-fault?fault=      makes D1 fail (down, flaky) or work again (none), for `npm run faults`
 *   POST /__bench/api-key?u=           the customer's API key, made by the real code, for the platform's readers
 *   POST /__bench/edge-hosts           writes edge websites' host entries (the real writer)
 *   POST /__bench/edge-page            the real edge proxy's answer for a page of a website (a local stand-in origin)
 *   GET  /__bench/edge-asset?host=     a same-host subresource of an edge page: the host routing's reads
 *   GET  /__bench/list-overlay?u=&at=  whether GET /api/analytics would add held counts now or settle, and why
 *   GET  /__bench/read-settles         the reducers' settles asked during the readers' requests, by source and path
 *   anything else                      the real Hono app: (d) is GET /api/content?u=&url=
 *
 * Every invocation (fetch, queue, scheduled) gets the real Env with each binding counted (meter.mts), booked to a
 * source: "fetch" (or the request's X-Bench-Meter header), "queue", "scheduled". With X-Bench-Clock the request
 * runs at that virtual time (clock.mts); with X-Bench-Location and X-Bench-Isolate at that simulated location (its own
 * Cache API) and isolate (its own memo: locations.mts, memo-lanes.mts). A request booked to a "reads …" source runs
 * on the product's origin (PUBLIC_ORIGIN) and is also booked what the reducers spend meanwhile. Its queue handler is the real analytics consumer, so the bench reports
 * D1's own count of rows written per page view. Messages of a dead-letter queue (consumed only when
 * `npm run faults` asks Miniflare to) are counted, not processed. The bench's own control routes are not counted.
 *
 * Named `.mts` so that tsconfig.node.json (`scripts/**\/*.ts`, Node types) does not pick it up: it runs in
 * workerd and is typechecked against the Workers types by scripts/perf/bench/tsconfig.json.
 */
import { consumeAnalytics } from "../../../worker/analytics/consumer";
import type { AnalyticsMessage } from "../../../worker/messages/analytics";
import { foldPendingAnalytics } from "../../../worker/analytics/fold";
import { AnalyticsReducer as WorkerAnalyticsReducer } from "../../../worker/analytics/reducer";
import { heldBy, reducerShards, settleCounters } from "../../../worker/analytics/reducer-shards";
import { purgeRawWindow } from "../../../worker/analytics/retention";
import { firstDayKept, URL_MONTHS_JOB } from "../../../worker/analytics/url-months";
import { app } from "../../../worker/app";
import { createDb } from "../../../worker/db/client";
import { analyticsRows, recentRowsFor, withUnsettledRows } from "../../../worker/models/usage";
import { analyticsQuery } from "../../../contract/schemas";
import { CONTENT_HEADERS, CORS_HEADERS, contentResponse, lookupContent } from "../../../worker/delivery/content-route";
import { PageViewRelay as WorkerPageViewRelay, relayShards } from "../../../worker/delivery/page-view-relay";
import { countSameHostSubresources } from "../../../worker/delivery/edge-subresources";
import { rebuildCustomer } from "../../../worker/delivery/rebuild";
import { KEPT_UNCHANGED_MS } from "../../../worker/delivery/change-feed-follower";
import { stateFromD1, URL_CACHE_MS, writeState, writeUrlEntry } from "../../../worker/delivery/store";
import type { Env } from "../../../worker/env";
import { deliveredMapping } from "../../../worker/models/delivered-mappings";
import { EVERY_MINUTE, runDaily, runEveryMinute } from "../../../worker/scheduled";
import { at } from "./clock.mjs";
import { inPlace } from "./locations.mjs";
import { ensureCustomerKey } from "../../../worker/models/api-keys";
import { secretKeys } from "../../../worker/lib/crypto";
import { proxyEdgeWebsite } from "../../../worker/delivery/edge-proxy";
import { readEdgeHost, writeEdgeHost, type EdgeHost } from "../../../worker/delivery/edge-hosts";
import { readState } from "../../../worker/delivery/store";
import type { Website } from "../../../worker/db/schema";
import { timeContent } from "./cpu.mjs";
import { counted, durableObjectSpend, lastSizeAfter, meteredBatch, reportingStorage } from "./meter.mjs";
import {
  D1_FAULTS,
  HEADERS,
  html,
  isD1Fault,
  COUNT_KEYS,
  noCounts,
  ROUTES,
  type CacheLifetimes,
  type Counts,
  type D1Fault,
  type D1Meter,
  type ReadSettles,
  type SimulationSpec,
} from "./protocol";
import { Simulation } from "./simulation.mjs";

// Durable Object classes the Worker exports, so that wrangler.toml's bindings to them work here too.
export * from "../../../worker/index";

/** The relay, with a restart the platform may impose at any moment (a deploy, a move): `npm run faults` calls it. */
export class PageViewRelay extends WorkerPageViewRelay {
  restart(): void {
    this.ctx.abort("restarted by npm run faults");
  }
}

/**
 * A reducer whose D1 calls and storage rows are counted (meter.mts `durableObjectSpend`, booked to whoever's work
 * called it) and whose D1 fails as the others', with a restart as for the relay: it then reads back what it held.
 */
export class AnalyticsReducer extends WorkerAnalyticsReducer {
  constructor(ctx: DurableObjectState, env: Env) {
    const spent = counted(env, durableObjectSpend);
    // Its D1 fails as `npm run faults` sets, whenever it is asked.
    super(ctx, new Proxy(spent, { get: (e, key) => (key === "DB" ? withFaults(e).DB : Reflect.get(e, key)) }));
    // The platform's constructor takes only the real state; the object then works on one that reports its rows.
    Object.defineProperty(this, "ctx", { value: reportingStorage(ctx) });
  }

  override hold(...args: Parameters<WorkerAnalyticsReducer["hold"]>) {
    return active(() => super.hold(...args));
  }

  override settle(...args: Parameters<WorkerAnalyticsReducer["settle"]>) {
    reducerSettles.asked++;
    return active(() => super.settle(...args));
  }

  override alarm() {
    return active(() => super.alarm());
  }

  restart(): void {
    this.ctx.abort("restarted by npm run faults");
  }
}

/** The reducers' settles asked so far, and of them those during readers' requests, by source and path. */
const reducerSettles = { asked: 0, byReader: {} as ReadSettles };

/**
 * What `GET /api/analytics` (its default first page) would do for the customer now, by the route's own calls: the
 * list's rows, a peek, and `withUnsettledRows`, which answers why it cannot add held counts (null: it can).
 */
async function listOverlay(env: Env, userId: string): Promise<{ settle: string | null }> {
  const db = createDb(env.DB);
  const query = analyticsQuery.parse({});
  const page = await analyticsRows(db, userId, query);
  const held = await heldBy(
    env,
    userId,
    page.rows.map((row) => row.url),
    recentRowsFor(query),
  );
  const shown = held ? await withUnsettledRows(db, userId, page, held, query) : "no peek";
  return { settle: typeof shown === "string" ? shown : null };
}

/**
 * Runs a reducer's call, booking its wall-clock time: what the platform bills a Durable Object's duration for (it
 * holds no timer or connection between calls, so it may hibernate there).
 */
async function active<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    durableObjectSpend.doActiveMs += performance.now() - started;
  }
}

async function restartReducers(env: Env): Promise<number> {
  const shards = reducerShards(env);
  const reducers = env.ANALYTICS_REDUCER as unknown as DurableObjectNamespace<AnalyticsReducer>;
  await Promise.allSettled(
    Array.from({ length: shards }, (_, i) => reducers.getByName(`analytics-reducer-${i}`).restart()),
  );
  return shards;
}

async function restartRelays(env: Env): Promise<number> {
  const shards = relayShards(env);
  const relays = env.PAGE_VIEW_RELAY as unknown as DurableObjectNamespace<PageViewRelay>;
  // An aborted object fails the call that aborted it: that is the restart.
  await Promise.allSettled(
    Array.from({ length: shards }, (_, i) => relays.getByName(`page-view-relay-${i}`).restart()),
  );
  return shards;
}

const CONSTANT_1KB = html(0, 1024);

function constant(): Response {
  return new Response(CONSTANT_1KB, { headers: CONTENT_HEADERS });
}

/** (b): the content route's own lookup and answer, without the analytics message. */
async function lookup(env: Env, params: URLSearchParams): Promise<Response> {
  const userId = params.get("u");
  const pageUrl = params.get("url");
  if (!userId || !pageUrl) return new Response("u and url are required", { status: 400, headers: CORS_HEADERS });
  return contentResponse((await lookupContent(env, userId, pageUrl)).match);
}

/** (c): the constant answer plus the same analytics message the content route sends for a delivery. */
function constantAndEnqueue(request: Request, env: Env, ctx: ExecutionContext, params: URLSearchParams): Response {
  const userId = params.get("u");
  const pageUrl = params.get("url");
  const mappingId = Number(params.get("m"));
  if (!userId || !pageUrl || !Number.isInteger(mappingId)) {
    return new Response("u, url and m are required", { status: 400, headers: CORS_HEADERS });
  }
  const message: AnalyticsMessage = {
    id: crypto.randomUUID(),
    userId,
    url: pageUrl.split("#", 1)[0]!,
    mappingId,
    delivered: true,
    timestamp: Date.now(),
    userAgent: request.headers.get("User-Agent"),
    referer: request.headers.get("Referer"),
  };
  ctx.waitUntil(env.ANALYTICS_QUEUE.send(message).catch((err) => console.error("Analytics enqueue failed", err)));
  return constant();
}

/** What the faults and the dead-letter queue did (the rows and size come from the counts: `d1Meter`). */
const faultMeter = { deadLettered: 0, failedBeforeD1: 0, failedAfterD1: 0, transactionsFailedAfterD1: 0 };

/** The billed binding calls, by source. */
const sources = new Map<string, Counts>();
function countsOf(source: string): Counts {
  let counts = sources.get(source);
  if (!counts) sources.set(source, (counts = noCounts()));
  return counts;
}

const d1Meter = (): D1Meter => ({
  ...faultMeter,
  rowsWritten: countsOf("queue").d1RowsWritten,
  sizeAfter: lastSizeAfter,
});

/**
 * How a D1 call is carried out: `call` does it; `kind` is the method: a statement's run, all, first or raw, or the
 * database's batch (a transaction) or exec.
 */
type D1Call = <T>(call: () => Promise<T>, kind: string) => Promise<T>;

/** D1 with every call passed through `around`. */
function intercepted(d1: D1Database, around: D1Call): D1Database {
  const executes = new Set<PropertyKey>(["run", "all", "first", "raw"]);
  const statement = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== "function") return value;
        if (executes.has(key)) return (...args: unknown[]) => around(() => value.apply(target, args), String(key));
        return value.bind(target);
      },
    });
  return new Proxy(d1, {
    get(target, key) {
      if (key === "prepare") return (sql: string) => statement(target.prepare(sql));
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      if (key === "batch" || key === "exec") {
        return (...args: unknown[]) => around(() => value.apply(target, args), key);
      }
      return value.bind(target);
    },
  });
}

/**
 * The D1 outage `npm run faults` sets, for the whole Worker (requests and queue consumer alike): `down` fails every
 * call; `flaky` fails one call in FLAKY_ONE_IN, half of them before D1 saw it and half after D1 carried it out (the
 * answer lost on its way back: the caller cannot tell that it happened, the hard case for counting once). Which
 * calls fail is drawn from a seeded generator, so runs are alike without failing the same call of every batch.
 */
let d1Fault: D1Fault = "none";
const FLAKY_ONE_IN = 4;
let seed = 0x2f6b1d;
/** A linear congruential generator (Numerical Recipes' constants): uniform in [0, 1). */
const draw = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

const injectedError = () => new Error("D1_ERROR: Network connection lost. (injected by the bench)");

const faulty = (d1: D1Database) =>
  intercepted(d1, async (call, kind) => {
    if (d1Fault === "down" || (d1Fault === "flaky" && draw() < 1 / FLAKY_ONE_IN)) {
      if (d1Fault === "flaky" && draw() < 0.5) {
        await call();
        faultMeter.failedAfterD1++;
        if (kind === "batch") faultMeter.transactionsFailedAfterD1++;
      } else faultMeter.failedBeforeD1++;
      throw injectedError();
    }
    return call();
  });

/** The Worker's env with D1 failing as set, or the env itself while no fault is set (the bench's own path). */
const withFaults = (env: Env): Env => (d1Fault === "none" ? env : { ...env, DB: faulty(env.DB) });

/** Runs `work` at the virtual time the request names (HEADERS.clock), else at the real time. */
function atClockOf<T>(request: Request, work: () => Promise<T>): Promise<T> {
  const clock = request.headers.get(HEADERS.clock);
  return clock === null ? work() : at(Number(clock), work);
}

/** The customers' states and these URL entries, written from D1 by the real writers (a partial rebuild). */
async function writeStore(env: Env, entries: { u: string; url: string }[]): Promise<Response> {
  const db = createDb(env.DB);
  for (const u of new Set(entries.map((e) => e.u))) {
    await writeState(env, u, await stateFromD1(db, u, { published: true }));
  }
  for (let i = 0; i < entries.length; i += 20) {
    await Promise.all(
      entries
        .slice(i, i + 20)
        .map(async ({ u, url }) => writeUrlEntry(env, u, url, await deliveredMapping(db, u, url))),
    );
  }
  return Response.json({ written: entries.length });
}

/**
 * A same-host subresource of an edge website's page reaching the Worker: what host-routing.ts does before the
 * request passes through to the origin (the host's entry, then its customer's state), without the origin's fetch.
 */
async function edgeAsset(env: Env, url: URL): Promise<Response> {
  const site = await readEdgeHost(env, url.searchParams.get("host") ?? "");
  if (site) await readState(env, site.userId, Date.now(), url.searchParams.get("visitor") ?? "unknown");
  return new Response(site ? "asset" : "no such host", { status: site ? 200 : 404 });
}

/** The product's origin the bench's readers use (PUBLIC_ORIGIN must be https; the request is rewritten to it). */
const READER_ORIGIN = "https://app.bench.example";

let simulation: Simulation | null = null;

async function simulate(pathname: string, request: Request, env: Env): Promise<Response> {
  if (pathname === ROUTES.simStart) {
    simulation = new Simulation(env, await request.json<SimulationSpec>());
    return Response.json({ started: true });
  }
  if (!simulation) return new Response("no simulation started", { status: 409 });
  if (pathname === ROUTES.simAdvance) {
    const { until, batches } = await request.json<{ until?: number; batches?: number }>();
    return Response.json(batches ? await simulation.advanceBatches(batches) : await simulation.advance(until!));
  }
  const report = await simulation.finish();
  simulation = null;
  return Response.json(report);
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    /**
     * The env of traffic the bench measures: counted, and failing as `npm run faults` sets (a call failed before D1
     * saw it is not counted).
     */
    const measured = () => {
      const counts = countsOf(request.headers.get(HEADERS.meter) ?? "fetch");
      counts.fetch++;
      return withFaults(counted(env, counts));
    };
    switch (url.pathname) {
      case ROUTES.constant:
        measured();
        return constant();
      case ROUTES.lookup:
        return lookup(measured(), url.searchParams);
      case ROUTES.enqueue:
        return constantAndEnqueue(request, measured(), ctx, url.searchParams);
      case ROUTES.rebuild:
        return Response.json(await rebuildCustomer(env, url.searchParams.get("u") ?? ""));
      case ROUTES.monthPassDone: {
        const cutoff = firstDayKept(new Date());
        await env.DB.prepare(
          `INSERT INTO housekeeping_cursors (job, position) VALUES (?1, json_object('cutoff', ?2, 'done', 1))
           ON CONFLICT (job) DO UPDATE SET position = excluded.position`,
        )
          .bind(URL_MONTHS_JOB, cutoff)
          .run();
        return Response.json({ cutoff });
      }
      case ROUTES.relayRestart:
        return Response.json(await restartRelays(env));
      case ROUTES.reducerRestart:
        return Response.json(await restartReducers(env));
      case ROUTES.d1Writes:
        return Response.json(d1Meter());
      case ROUTES.meter:
        return Response.json(countsOf(url.searchParams.get("source") ?? "fetch"));
      case ROUTES.store: {
        const entries = await request.json<{ u: string; url: string }[]>();
        return atClockOf(request, () => writeStore(env, entries));
      }
      case ROUTES.cacheLifetimes:
        return Response.json({
          url: URL_CACHE_MS,
          state: KEPT_UNCHANGED_MS,
          edgeHost: KEPT_UNCHANGED_MS,
        } satisfies CacheLifetimes);
      case ROUTES.simStart:
      case ROUTES.simAdvance:
      case ROUTES.simFinish:
        return simulate(url.pathname, request, env);
      case ROUTES.cpu: {
        const p = url.searchParams;
        const report = await timeContent(
          env,
          url.origin,
          p.get("u")!,
          p.get("url")!,
          +p.get("calls")!,
          +p.get("rounds")!,
          constant,
        );
        return Response.json(report);
      }
      case ROUTES.d1Fault: {
        const fault = url.searchParams.get("fault");
        if (!isD1Fault(fault)) return new Response(`fault must be one of ${D1_FAULTS.join(", ")}`, { status: 400 });
        d1Fault = fault;
        return Response.json({ fault });
      }
      case ROUTES.purge:
        return Response.json(await purgeRawWindow(env, new Date(Number(url.searchParams.get("now")))));
      case ROUTES.listOverlay: {
        const when = Number(url.searchParams.get("at"));
        return Response.json(await at(when, () => listOverlay(env, url.searchParams.get("u") ?? "")));
      }
      case ROUTES.readSettles:
        return Response.json(reducerSettles.byReader);
      case ROUTES.fold:
        try {
          // Folded as the minute cron does, then what the reducers hold settled, as a reader's screen would ask.
          const metered = withFaults(counted(env, countsOf("queue")));
          const folded = await foldPendingAnalytics(metered);
          await settleCounters(metered, "all");
          return Response.json(folded);
        } catch (err) {
          return new Response(String(err), { status: 503 });
        }
      case ROUTES.apiKey:
        return Response.json({
          key: await ensureCustomerKey(createDb(env.DB), secretKeys(env), url.searchParams.get("u") ?? ""),
        });
      case ROUTES.edgeHosts: {
        const hosts = await request.json<{ hostname: string; userId: string; origin: string }[]>();
        return atClockOf(request, async () => {
          for (const h of hosts) {
            const website = { status: "active", mode: "edge", userId: h.userId, origin: h.origin } as Website;
            await writeEdgeHost(env, h.hostname, website);
          }
          return Response.json({ written: hosts.length });
        });
      }
      case ROUTES.edgePage: {
        // The real edge proxy on one page of a local stand-in origin (loopback: allowed in development only).
        const { site, page } = await request.json<{ site: EdgeHost; page: string }>();
        const pageUrl = new URL(page);
        const visit = new Request(pageUrl, {
          headers: { Accept: "text/html", "User-Agent": request.headers.get("User-Agent") ?? "" },
        });
        const answer = await proxyEdgeWebsite(visit, { ...measured(), ENVIRONMENT: "development" }, ctx, pageUrl, site);
        const body = await answer.text();
        // What the browser would still ask of the Worker: the page's own subresources left on the website's hosts.
        const left = String(countSameHostSubresources(body, page));
        return new Response(body, { status: answer.status, headers: { [HEADERS.subresourcesLeft]: left } });
      }
      default: {
        const location = request.headers.get(HEADERS.location);
        const meter = request.headers.get(HEADERS.meter) ?? "fetch";
        // Reads of the app's own routes (the dashboards, the pollers) answer on the product's origin; what the
        // reducers spend meanwhile (a read's settle) is booked to them (the bench sends them one at a time).
        const reader = meter.startsWith("reads");
        const env_ = reader ? { ...measured(), PUBLIC_ORIGIN: READER_ORIGIN } : measured();
        const asked = reader ? new Request(new URL(url.pathname + url.search, READER_ORIGIN), request) : request;
        const run = async () => {
          const before = { ...durableObjectSpend };
          const settlesBefore = reducerSettles.asked;
          try {
            return url.pathname === ROUTES.edgeAsset ? await edgeAsset(env_, url) : await app.fetch(asked, env_, ctx);
          } finally {
            if (reader) {
              for (const key of COUNT_KEYS) countsOf(meter)[key] += durableObjectSpend[key] - before[key];
              const by = `${meter} ${url.pathname}`;
              reducerSettles.byReader[by] = (reducerSettles.byReader[by] ?? 0) + reducerSettles.asked - settlesBefore;
            }
          }
        };
        const placed = () =>
          location === null
            ? run()
            : inPlace(Number(location), Number(request.headers.get(HEADERS.isolate) ?? 0), countsOf(meter), run);
        return atClockOf(request, placed);
      }
    }
  },
  async queue(batch, env) {
    const counts = countsOf("queue");
    counts.queue++;
    if (batch.queue.endsWith("-dlq")) {
      faultMeter.deadLettered += batch.messages.length;
      return batch.ackAll();
    }
    await meteredBatch(batch, counts, (b) => consumeAnalytics(b, withFaults(counted(env, counts))));
  },
  async scheduled(controller, env, ctx) {
    const counts = countsOf("scheduled");
    counts.scheduled++;
    const metered = counted(env, counts);
    ctx.waitUntil(controller.cron === EVERY_MINUTE ? runEveryMinute(metered) : runDaily(metered));
  },
} satisfies ExportedHandler<Env, AnalyticsMessage>;
