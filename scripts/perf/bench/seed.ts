/**
 * @module The customers, mappings and page views of `npm run bench` and `npm run faults`: seeded with bulk SQL, their
 * delivery entries written by the real rebuild (worker/delivery/rebuild.ts), and the i-th page view of a scenario.
 */
import type { BenchWorker } from "./harness";
import { html, htmlSql, ROUTES } from "./protocol";
import { normalizedUrlOf, userIdOf as customerId } from "./traffic";

/** Bytes of HTML per mapping. */
export const HTML_BYTES = 2048;
/** Mappings per INSERT when seeding (about 20 MB of HTML per statement). */
const SEED_CHUNK = 10_000;

export interface Scenario {
  /** From 1, distinct per scenario of one run: in user ids and host names. */
  n: number;
  name: string;
  customers: number;
  mappingsEach: number;
  /** Bytes of HTML per mapping: HTML_BYTES unless given. */
  htmlBytes?: number;
  /**
   * Every this many customers (customer k, 2k, ...) one has a limit (a request limit far above any traffic here), so
   * their views spend a quota and each visitor a budget; none unless given.
   */
  limitedEvery?: number;
}

/** The request limit of a scenario's customers with a limit: never reached. */
const FAR_LIMIT = 1e12;

/** Customer c (from 1) of a scenario: a 16-character id as the Worker issues them. */
const userIdOf = (s: Scenario, c: number) => customerId(s.n, c);

export interface PageView {
  /** The customer's id. */
  u: string;
  /** The page URL, URL-encoded, as a browser might write it: other case, no www, no trailing slash, a hash. */
  url: string;
  /** The id of the mapping that serves it. */
  m: number;
  /** The HTML it is served. */
  html: () => string;
}

export interface Seeded {
  /** Mappings seeded, all scenarios together. */
  mappings: number;
  /** The i-th page view of a scenario: customers in turn, then their mappings in turn. */
  page: (s: Scenario, i: number) => PageView;
  /** The id of customer c's item i (both from 1). */
  mappingIdOf: (s: Scenario, c: number, item: number) => number;
}

/**
 * Seeds the scenarios' customers and published mappings in D1, then (unless `deliveryEntries` is false) writes
 * their delivery entries: about 3 ms per entry in Miniflare's KV, the most of seeding's time.
 */
export async function seed(
  { db, call }: BenchWorker,
  scenarios: readonly Scenario[],
  { deliveryEntries = true } = {},
): Promise<Seeded> {
  const mappingIds = new Map<string, number>();
  for (const s of scenarios) {
    await db
      .prepare(
        `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ?2)
         INSERT INTO users (id, email, email_verified, created_at, request_limit)
         SELECT printf('b%d%014d', ?1, n), printf('c%d@s%d.bench.example', n, ?1), 1, 0,
           CASE WHEN ?3 > 0 AND n % ?3 = 0 THEN ?4 END FROM c`,
      )
      .bind(s.n, s.customers, s.limitedEvery ?? 0, FAR_LIMIT)
      .run();
    const total = s.customers * s.mappingsEach;
    // Mapping g (from 1) belongs to customer ceil(g / mappingsEach) and is their item ((g - 1) % mappingsEach) + 1.
    const customer = `((g - 1) / ${s.mappingsEach} + 1)`;
    const item = `((g - 1) % ${s.mappingsEach} + 1)`;
    const content = htmlSql("g", s.htmlBytes ?? HTML_BYTES, "?4");
    for (let from = 1; from <= total; from += SEED_CHUNK) {
      await db
        .prepare(
          // D1 binds JavaScript numbers as REAL: cast them, so that the arithmetic and the text are integers.
          `WITH RECURSIVE m(g) AS (SELECT CAST(?2 AS INTEGER) UNION ALL SELECT g + 1 FROM m WHERE g < ?3)
           INSERT INTO url_mappings (url, normalized_url, html_content, published_at, user_id, created_at)
           SELECT 'https://www.s' || ?1 || 'c' || ${customer} || '.example/products/item-' || ${item} || '/',
             's' || ?1 || 'c' || ${customer} || '.example/products/item-' || ${item},
             ${content.sql}, 1, printf('b%d%014d', ?1, ${customer}), g FROM m`,
        )
        .bind(String(s.n), from, Math.min(total, from + SEED_CHUNK - 1), content.filler)
        .run();
    }
    const { results } = await db
      .prepare("SELECT id, normalized_url AS url FROM url_mappings WHERE user_id LIKE ?1")
      .bind(`b${s.n}%`)
      .all<{ id: number; url: string }>();
    for (const r of results) mappingIds.set(r.url, r.id);
  }
  for (const s of deliveryEntries ? scenarios : []) {
    for (let c = 1; c <= s.customers; c += 20) {
      const batch = Array.from({ length: Math.min(20, s.customers - c + 1) }, (_, k) => userIdOf(s, c + k));
      await Promise.all(batch.map((u) => call(`${ROUTES.rebuild}?u=${u}`, "POST")));
    }
  }
  const mappingIdOf = (s: Scenario, c: number, item: number) => mappingIds.get(normalizedUrlOf(s.n, c, item))!;
  return {
    mappings: mappingIds.size,
    mappingIdOf,
    page: (s, i) => {
      const c = (i % s.customers) + 1;
      const item = (Math.floor(i / s.customers) % s.mappingsEach) + 1;
      const normalized = normalizedUrlOf(s.n, c, item);
      return {
        u: userIdOf(s, c),
        url: encodeURIComponent(`https://S${normalized.slice(1)}#reviews`),
        m: mappingIds.get(normalized)!,
        html: () => html((c - 1) * s.mappingsEach + item, s.htmlBytes ?? HTML_BYTES),
      };
    },
  };
}
