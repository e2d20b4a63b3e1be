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
 *   anything else                      the real Hono app: (d) is GET /api/content?u=&url=
 *
 * Its queue handler is the real analytics consumer, with D1 metered: every statement's `meta.rows_written` is
 * added up, so the bench reports D1's own count of rows written per page view.
 *
 * Named `.mts` so that tsconfig.node.json (`scripts/**\/*.ts`, Node types) does not pick it up: it runs in
 * workerd and is typechecked against the Workers types by scripts/bench/tsconfig.json.
 */
import { consumeAnalytics } from "../../worker/analytics/consumer";
import type { AnalyticsMessage } from "../../worker/analytics/message";
import { purgeRawWindow } from "../../worker/analytics/retention";
import { app } from "../../worker/app";
import { CONTENT_HEADERS, CORS_HEADERS, contentResponse, lookupContent } from "../../worker/delivery/content-route";
import { rebuildCustomer } from "../../worker/delivery/rebuild";
import type { Env } from "../../worker/env";
import { html, ROUTES, type D1Meter } from "./protocol";

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

const meter: D1Meter = { rowsWritten: 0, sizeAfter: 0 };

function record(meta: D1Meta | undefined) {
  if (!meta) return;
  meter.rowsWritten += meta.rows_written ?? 0;
  if (meta.size_after) meter.sizeAfter = meta.size_after;
}

/** D1 as the consumer sees it, adding up `meta.rows_written` of every statement that answers its meta. */
function metered(d1: D1Database): D1Database {
  const statement = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        if (key === "run" || key === "all") {
          return async () => {
            const result = await target[key]();
            record(result.meta);
            return result;
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return new Proxy(d1, {
    get(target, key) {
      if (key === "prepare") return (sql: string) => statement(target.prepare(sql));
      if (key === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          for (const result of results) record(result.meta);
          return results;
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

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
      case ROUTES.purge:
        return Response.json(await purgeRawWindow(env, new Date(Number(url.searchParams.get("now")))));
      default:
        return app.fetch(request, env, ctx);
    }
  },
  queue: (batch, env) => consumeAnalytics(batch, { ...env, DB: metered(env.DB) }),
} satisfies ExportedHandler<Env, AnalyticsMessage>;
