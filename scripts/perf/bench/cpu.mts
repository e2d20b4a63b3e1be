/**
 * @module CPU per request of the real /api/content (the Hono app), measured in the isolate as the performance
 * review's §4.2 did: KV, Rate Limiting, the queue and D1 replaced by plain in-memory stand-ins (the customer's
 * state and one URL entry copied from the delivery store; D1 empty), so that nothing but the product's own JavaScript runs, and
 * each call timed with `performance.now()` (locally workerd's clock advances while JavaScript runs; in production
 * it does not, so this is a local measure). Three variants, interleaved round by round: a constant 1 KB Response
 * (the baseline), /api/content with the memo warm (the same URL again within its 5 s), and /api/content with the
 * memo cold (the virtual clock 6 s on before every call: the state's and the URL's reads, SHA-256 of the URL; the
 * isolate's read of the change feed, due every 10 s, is done between calls, untimed).
 * A fourth, the same as the third on a URL with 20 audience mappings besides its fallback (docs/audiences.md), each
 * with the page's HTML, none of which the visitor belongs to (each fails on its last condition), so all 20 are
 * read and tried. Each call's waitUntil work (the analytics message, its visitor hash) is awaited within the round.
 */
import { app } from "../../../worker/app";
import { changeFeed } from "../../../worker/delivery/change-feed";
import { stateKey, urlKey } from "../../../worker/delivery/keys";
import { decodeUrlEntry, writeUrlEntry, type DeliveredMapping } from "../../../worker/delivery/store";
import type { Env } from "../../../worker/env";
import { normalizeUrl } from "#contract/normalize-url";
import { at } from "./clock.mjs";
import { BROWSER_REFERER, BROWSER_USER_AGENT, type CpuReport } from "./protocol";

interface Entry {
  value: string;
  metadata: unknown;
}

/**
 * KV as a Map: get (text or json) and getWithMetadata; nothing else is called on the hot path of a hit (put only
 * writes the audience URL's entry before the timing).
 */
function memoryKv(entries: Map<string, Entry>, seen: { reads: number }): KVNamespace {
  const read = (key: string, type?: unknown) => {
    seen.reads++;
    const entry = entries.get(key);
    const kind = typeof type === "string" ? type : (type as { type?: string } | undefined)?.type;
    const value = entry ? (kind === "json" ? (JSON.parse(entry.value) as unknown) : entry.value) : null;
    return { value, metadata: entry?.metadata ?? null };
  };
  return {
    get: async (key: string, type?: unknown) => read(key, type).value,
    getWithMetadata: async (key: string, type?: unknown) => read(key, type),
    put: async (key: string, value: string, options?: { metadata?: unknown }) =>
      void entries.set(key, { value, metadata: options?.metadata ?? null }),
  } as unknown as KVNamespace;
}

/**
 * D1 as an empty database that answers at once: the hot path reads D1 only for the change feed (a read per isolate
 * every 10 s at most, delivery/change-feed-follower.ts), which this measure's calls, 6 s apart, would otherwise make
 * every other call wait for a local database.
 */
function emptyD1(): D1Database {
  const meta = { duration: 0, changes: 0, last_row_id: 0, rows_read: 0, rows_written: 0 };
  const statement = {
    bind: () => statement,
    all: async () => ({ results: [], success: true, meta }),
    raw: async () => [],
    first: async () => null,
    run: async () => ({ results: [], success: true, meta }),
  };
  return {
    prepare: () => statement,
    batch: async (statements: unknown[]) => statements.map(() => ({ results: [], success: true, meta })),
  } as unknown as D1Database;
}

export async function timeContent(
  env: Env,
  origin: string,
  userId: string,
  pageUrl: string,
  calls: number,
  rounds: number,
  constant: () => Response,
): Promise<CpuReport> {
  const entries = new Map<string, Entry>();
  for (const key of [stateKey(userId), await urlKey(userId, normalizeUrl(pageUrl))]) {
    const { value, metadata } = await env.DELIVERY.getWithMetadata(key, "text");
    if (value === null) throw new Error(`the delivery store has no ${key}`);
    entries.set(key, { value, metadata });
  }
  const seen = { reads: 0, limits: 0, messages: 0 };
  const allow = { limit: async () => (seen.limits++, { success: true }) } as RateLimit;
  const stubs: Env = {
    ...env,
    // Each view sent at once, its message's work timed with it (an isolate's window would only add waiting).
    PAGE_VIEW_BUNDLE_MS: "0",
    DELIVERY: memoryKv(entries, seen),
    DB: emptyD1(),
    CONTENT_VISITOR_LIMITER: allow,
    UNMETERED_VISITOR_LIMITER: allow,
    HOT_PATH_FILL_LIMITER: allow,
    ANALYTICS_QUEUE: {
      send: async () => void seen.messages++,
      sendBatch: async () => {},
    } as unknown as Env["ANALYTICS_QUEUE"],
  };
  // The same page with 20 audience mappings besides its fallback, each the page's HTML: a desktop visitor in
  // Germany who reads German and came from another website (BROWSER_REFERER) fails each one's referrer condition.
  const audiencePage = `${pageUrl}${pageUrl.includes("?") ? "&" : "?"}audiences=20`;
  const stored = entries.get(await urlKey(userId, normalizeUrl(pageUrl)))!;
  const page = decodeUrlEntry(
    stored.value,
    stored.metadata as Parameters<typeof decodeUrlEntry>[1],
  ) as DeliveredMapping;
  const fallback = { id: page.mappingId, htmlContent: page.html, placement: null, seo: null };
  const audiences = Array.from({ length: 20 }, (_, i) => ({
    ...fallback,
    id: page.mappingId + 1 + i,
    audience: {
      name: `Audience ${i + 1}`,
      country: ["AT", "CH", "DE"],
      device: ["desktop" as const],
      language: ["de"],
      referrer: ["search" as const, "social" as const, "ai" as const],
    },
  }));
  await writeUrlEntry(stubs, userId, normalizeUrl(audiencePage), fallback, audiences);
  const url = `${origin}/api/content?u=${userId}&url=${encodeURIComponent(pageUrl)}`;
  const audienceUrl = `${origin}/api/content?u=${userId}&url=${encodeURIComponent(audiencePage)}`;
  const headers = {
    "User-Agent": BROWSER_USER_AGENT,
    Referer: BROWSER_REFERER,
    "CF-Connecting-IP": "10.0.0.1",
    "CF-IPCountry": "DE",
    "Accept-Language": "de-DE,de;q=0.9,en;q=0.8",
  };
  let okAnswers = 0;

  /**
   * µs per call of `handle`, its waitUntil work included; `before` runs before each call, untimed.
   */
  async function time(
    handle: (request: Request, ctx: ExecutionContext) => Promise<Response>,
    target = url,
    before?: () => Promise<unknown>,
  ) {
    const pending: Promise<unknown>[] = [];
    const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {}, props: {} };
    let elapsed = 0;
    for (let i = 0; i < calls; i++) {
      await before?.();
      const started = performance.now();
      const res = await handle(new Request(target, { headers }), ctx as unknown as ExecutionContext);
      await res.arrayBuffer();
      elapsed += performance.now() - started;
      if (res.status === 200) okAnswers++;
    }
    const started = performance.now();
    await Promise.all(pending);
    elapsed += performance.now() - started;
    return (elapsed * 1000) / calls;
  }

  let virtual = Date.now() + 3_600_000;
  /**
   * The memo cold: the virtual clock 6 s on, and the isolate's read of the change feed done if due, untimed (one
   * read every 10 s per isolate, shared by the views of those seconds; calls 6 s apart would book one to every other
   * call).
   */
  const sixSecondsOn = async () => {
    virtual += 6_000;
    await at(virtual, async () => changeFeed.refreshIfDue(stubs, Date.now()));
  };

  const report: CpuReport = {
    calls,
    rounds,
    constant: [],
    contentMemoHit: [],
    contentMemoMiss: [],
    contentAudiencesMemoMiss: [],
    perCall: { kvReads: 0, rateLimitCalls: 0, messages: 0, okAnswers: 0 },
  };
  for (let round = 0; round < rounds; round++) {
    report.constant.push(await time(async () => constant()));
    // The memo warm: one call fills it, the timed ones hit it (all within its 5 s).
    virtual += 60_000;
    report.contentMemoHit.push(
      await at(virtual, async () => {
        await app.fetch(new Request(url, { headers }), stubs, {
          waitUntil() {},
          passThroughOnException() {},
          props: {},
        });
        return time(async (request, ctx) => app.fetch(request, stubs, ctx));
      }),
    );
    // The memo cold on the URL with 20 audiences (before the counts of the plain URL's are taken).
    report.contentAudiencesMemoMiss.push(
      await time(
        async (request, ctx) => at(virtual, async () => app.fetch(request, stubs, ctx)),
        audienceUrl,
        sixSecondsOn,
      ),
    );
    Object.assign(seen, { reads: 0, limits: 0, messages: 0 });
    okAnswers = 0;
    // The memo cold: every call 6 s after the one before.
    report.contentMemoMiss.push(
      await time(async (request, ctx) => at(virtual, async () => app.fetch(request, stubs, ctx)), url, sixSecondsOn),
    );
    report.perCall = {
      kvReads: seen.reads / calls,
      rateLimitCalls: seen.limits / calls,
      messages: seen.messages / calls,
      okAnswers: okAnswers / calls,
    };
  }
  return report;
}
