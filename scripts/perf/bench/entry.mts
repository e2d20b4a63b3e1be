/**
 * @module The bench's own Worker entry (never deployed): it wraps the real modules so that `npm run bench` can
 * compare the hot path with constant routes in one runtime. Production code carries no bench routes.
 *
 *   GET  /__bench/constant             (a) a constant 1 KB answer
 *   GET  /__bench/lookup?u=&url=       (b) the content lookup alone: lookupContent and its answer
 *   GET  /__bench/enqueue?u=&url=&m=   (c) the constant 1 KB answer plus one analytics message in waitUntil
 *   POST /__bench/rebuild?u=           writes a customer's delivery entries with the real rebuild (after seeding)
 *   GET  /__bench/d1-writes            D1 rows the analytics consumer wrote, from D1's own meta
 *   POST /__bench/purge?now=           the daily cron's purge of the raw window, as at that time
 *   POST /__bench/d1-fault?fault=      makes D1 fail (down, flaky) or work again (none), for `npm run faults`
 *   anything else                      the real Hono app: (d) is GET /api/content?u=&url=
 *
 * Its queue handler is the real analytics consumer, with D1 metered: every statement's `meta.rows_written` is
 * added up, so the bench reports D1's own count of rows written per page view. Messages of a dead-letter queue
 * (consumed only when `npm run faults` asks Miniflare to) are counted, not processed.
 *
 * Named `.mts` so that tsconfig.node.json (`scripts/**\/*.ts`, Node types) does not pick it up: it runs in
 * workerd and is typechecked against the Workers types by scripts/perf/bench/tsconfig.json.
 */
import { consumeAnalytics } from "../../../worker/analytics/consumer";
import type { AnalyticsMessage } from "../../../worker/messages/analytics";
import { purgeRawWindow } from "../../../worker/analytics/retention";
import { app } from "../../../worker/app";
import { CONTENT_HEADERS, CORS_HEADERS, contentResponse, lookupContent } from "../../../worker/delivery/content-route";
import { rebuildCustomer } from "../../../worker/delivery/rebuild";
import type { Env } from "../../../worker/env";
import { D1_FAULTS, html, isD1Fault, ROUTES, type D1Fault, type D1Meter } from "./protocol";

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

const meter: D1Meter = {
  rowsWritten: 0,
  sizeAfter: 0,
  deadLettered: 0,
  failedBeforeD1: 0,
  failedAfterD1: 0,
  transactionsFailedAfterD1: 0,
};

function record(meta: D1Meta | undefined) {
  if (!meta) return;
  meter.rowsWritten += meta.rows_written ?? 0;
  if (meta.size_after) meter.sizeAfter = meta.size_after;
}

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

/** D1 as the consumer sees it, adding up `meta.rows_written` of every statement that answers its meta. */
const metered = (d1: D1Database) =>
  intercepted(d1, async (call) => {
    const result = await call();
    for (const r of Array.isArray(result) ? result : [result]) record((r as { meta?: D1Meta } | null)?.meta);
    return result;
  });

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
        meter.failedAfterD1++;
        if (kind === "batch") meter.transactionsFailedAfterD1++;
      } else meter.failedBeforeD1++;
      throw injectedError();
    }
    return call();
  });

/** The Worker's env with D1 failing as set, or the env itself while no fault is set (the bench's own path). */
const withFaults = (env: Env): Env => (d1Fault === "none" ? env : { ...env, DB: faulty(env.DB) });

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    switch (url.pathname) {
      case ROUTES.constant:
        return constant();
      case ROUTES.lookup:
        return lookup(env, url.searchParams);
      case ROUTES.enqueue:
        return constantAndEnqueue(request, env, ctx, url.searchParams);
      case ROUTES.rebuild:
        return Response.json(await rebuildCustomer(env, url.searchParams.get("u") ?? ""));
      case ROUTES.d1Writes:
        return Response.json(meter);
      case ROUTES.d1Fault: {
        const fault = url.searchParams.get("fault");
        if (!isD1Fault(fault)) return new Response(`fault must be one of ${D1_FAULTS.join(", ")}`, { status: 400 });
        d1Fault = fault;
        return Response.json({ fault });
      }
      case ROUTES.purge:
        return Response.json(await purgeRawWindow(env, new Date(Number(url.searchParams.get("now")))));
      default:
        return app.fetch(request, withFaults(env), ctx);
    }
  },
  async queue(batch, env) {
    if (batch.queue.endsWith("-dlq")) {
      meter.deadLettered += batch.messages.length;
      return batch.ackAll();
    }
    const faultyEnv = withFaults(env);
    await consumeAnalytics(batch, { ...faultyEnv, DB: metered(faultyEnv.DB) });
  },
} satisfies ExportedHandler<Env, AnalyticsMessage>;
