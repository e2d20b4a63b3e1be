/**
 * @module The bench's own Worker entry (never deployed): it wraps the real modules so that `npm run bench` can
 * compare the hot path with constant routes in one runtime. Production code carries no bench routes.
 *
 *   GET  /__bench/constant             (a) a constant 1 KB answer
 *   GET  /__bench/lookup?u=&url=       (b) the content lookup alone: lookupContent and its answer
 *   GET  /__bench/enqueue?u=&url=&m=   (c) the constant 1 KB answer plus one analytics message in waitUntil
 *   POST /__bench/seed                 one customer with N published mappings of M bytes; writes its document
 *   anything else                      the real Hono app: (d) is GET /api/content?u=&url=
 *
 * Its queue handler is the real analytics consumer, so every message ends in D1.
 *
 * Named `.mts` so that tsconfig.node.json (`scripts/**\/*.ts`, Node types) does not pick it up: it runs in
 * workerd and is typechecked against the Workers types by scripts/bench/tsconfig.json.
 */
import { consumeAnalytics } from "../../worker/analytics/consumer";
import type { AnalyticsMessage } from "../../worker/analytics/message";
import { app } from "../../worker/app";
import { eq } from "drizzle-orm";
import { createDb } from "../../worker/db/client";
import { users } from "../../worker/db/schema";
import { CONTENT_HEADERS, CORS_HEADERS, contentResponse, lookupContent } from "../../worker/delivery/content-route";
import { writeDocument } from "../../worker/delivery/document";
import type { Env } from "../../worker/env";
import { createMapping } from "../../worker/models/mappings";
import { ensureCustomer, markEmailVerified } from "../../worker/models/users";
import { ROUTES, type SeedRequest, type SeedResponse } from "./protocol";

/** Exactly `bytes` bytes of ASCII HTML, different per `n`. */
function html(n: number, bytes: number): string {
  const open = `<section class="dc-promo" data-n="${n}"><h2>Offer ${n}</h2><p>`;
  const close = `</p></section>`;
  const filler = "Fresh content for this page, delivered by the edge. ";
  let body = "";
  while (open.length + body.length + close.length < bytes) body += filler;
  return open + body.slice(0, bytes - open.length - close.length) + close;
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

/** Seeds through the real models and writes the delivery document with the real writeDocument. */
async function seed(env: Env, request: Request): Promise<Response> {
  const { email, mappings, htmlBytes } = await request.json<SeedRequest>();
  const db = createDb(env.DB);
  const user = await ensureCustomer(db, email);
  await markEmailVerified(db, user);
  // No product version: no delivery limits, so the bench measures delivery rather than the 204 past a limit.
  await db.update(users).set({ productVersionId: null }).where(eq(users.id, user.id));
  const created: SeedResponse["mappings"] = [];
  for (let i = 1; i <= mappings; i++) {
    const url = `https://www.shop.example/products/item-${i}/`;
    const mapping = await createMapping(db, user.id, url, html(i, htmlBytes));
    created.push({ id: mapping.id, url, html: mapping.htmlContent });
  }
  const doc = await writeDocument(env, user.id);
  if (!doc.active || Object.keys(doc.mappings).length !== mappings) {
    return new Response("the delivery document does not hold the seeded mappings", { status: 500 });
  }
  return Response.json({ userId: user.id, mappings: created } satisfies SeedResponse);
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
      case ROUTES.seed:
        return seed(env, request);
      default:
        return app.fetch(request, env, ctx);
    }
  },
  queue: consumeAnalytics,
} satisfies ExportedHandler<Env, AnalyticsMessage>;
