/**
 * @module The realistic platform of `npm run bench` (issue 43): what a page view costs on the platform of
 * platform-model.ts at 10,000 million views a month, every billed operation measured on the real code, compressed
 * in time as follows (docs/decisions.md, "Issue 43: the realistic bench"):
 *
 * - **The volume run** (simulation.mts): BENCH_PLATFORM_MINUTES simulated minutes of the whole platform's views at the
 *   full rate (3,858 a second), through the real consumer in the batches Cloudflare Queues would make, the minute
 *   cron every minute (its folds, the reducers' handoffs and the settles their caps force), the dashboards' reads and
 *   the pollers' polls of the real routes at their times, with API keys made by the real code; then the closing
 *   settle of what the reducers hold, the daily cron at its time, and the raw window's purge a week later. The
 *   stretch's own work is booked per view of the stretch; the daily cron and the day's final settle (the closing
 *   settle once more) over a day's views.
 * - **The hot path by location** (locations.mts): BENCH_LOCATIONS_SAMPLED of the 300 locations, one after another,
 *   each at its share of the rate, through the real /api/content over HTTP, each location with its own Cache API and
 *   each view in one of its BENCH_ISOLATES_PER_LOCATION isolates (their own memos and followers of the change feed,
 *   lanes.mts). Views through edge websites also send the same-host subresources the visitor's browser does not hold,
 *   through the edge's host routing. A location runs in steady state: a warm-up of BENCH_LOCATION_WARMUP_MINUTES
 *   simulated minutes (default: the longest its cache keeps an entry, an hour: a URL's, or a state or an edge
 *   website's entry while unchanged), metered apart and not in the figures, then BENCH_LOCATION_MINUTES measured. The
 *   warm-up sends the subresources for as long as what they read (the host's entry, the customer's state) is kept.
 * - **The edge page**: the real edge proxy on the sample page of a local stand-in origin (edge-page.ts); the
 *   same-host subresource URLs left in its answer are what an edge page view asks of the Worker.
 * Every view sent is checked counted once by customer, by URL and by mapping.
 */
import { reducerShardOf, reducerShards, spreadShardOf } from "../../../worker/analytics/shard-count";
import { MAX_HELD_SUMS } from "../../../worker/analytics/reducer-sums";
import { ANALYTICS_QUEUE_NAME } from "../../../worker/messages/analytics";
import { UNMAPPED_URLS_PER_DAY } from "../../../worker/models/url-rows";
import { OTHER_PAGES } from "../../../contract/responses";
import { startStandInOrigin } from "./edge-page";
import { fmt, numberSetting as num, pad, lpad, verdict, type BenchWorker } from "./harness";
import {
  dailyCronMinute,
  dollars,
  median,
  per,
  perView,
  printCpu,
  scaled,
  usageOf,
  utcMidnight,
  withoutQueue,
} from "./operations";
import {
  CRAWLER_USER_AGENT,
  hasLimit,
  mappedOf,
  mappingOffsets,
  pagesOf,
  PLATFORM,
  pagesSettledADay,
  PlatformTraffic,
  unmappedPagesSeen,
  platformUrl,
  type PlatformView,
} from "./platform-model";
import { monthlyCost, PRICES_CHECKED } from "./prices";
import {
  HEADERS,
  html,
  type CacheLifetimes,
  htmlSql,
  ROUTES,
  sumCounts,
  type Counts,
  type CpuReport,
  type ReadSettles,
  type SimulationProgress,
  type SimulationReport,
  type SimulationSpec,
} from "./protocol";
import { MONTH_SECONDS, normalizedUrlOf, seededRandom, userIdOf } from "./traffic";

const MINUTES = Math.round(num("BENCH_PLATFORM_MINUTES", 3));
/**
 * One location measured 6 minutes: its hour of warm-up takes about 5 minutes here, and it measures as many views as
 * 3 locations of 2 measured minutes did before the warm-up (the model's locations are alike).
 */
const LOCATIONS_SAMPLED = Math.round(num("BENCH_LOCATIONS_SAMPLED", 1));
const LOCATION_MINUTES = Math.round(num("BENCH_LOCATION_MINUTES", 6));
/**
 * Views in flight at a location, sent in order so that each finds what the earlier ones kept; more in the warm-up
 * before its last minutes, which only fills the location's cache with URL entries (kept an hour).
 */
const IN_FLIGHT = 4;
const WARM_UP_IN_FLIGHT = Math.round(num("BENCH_LOCATION_WARMUP_IN_FLIGHT", 16));
const ISOLATES_PER_LOCATION = Math.round(num("BENCH_ISOLATES_PER_LOCATION", 8));
const CPU_CALLS = Math.round(num("BENCH_CPU_CALLS", 10_000));
const CPU_ROUNDS = Math.round(num("BENCH_CPU_ROUNDS", 5));
/** Warm isolates the volume run's views spread over, each gathering its own into messages (queue-messages.mts). */
const ISOLATES = Math.round(num("BENCH_ISOLATES", 300));
/** Of a page's same-host subresources, the share the visitor's browser already holds (later pages of a visit). */
const BROWSER_CACHE_SHARE = 0.6;
/**
 * Edge websites whose assets are served from another host (docs/edge-delivery.md, "Assets from another host": an
 * option the customer turns on, so 0 unless BENCH_EDGE_ASSETS_ELSEWHERE says otherwise), and the EdgeHost field that
 * says so: the bench measures the sample page both ways.
 */
const ASSETS_ELSEWHERE_SHARE = Number(process.env.BENCH_EDGE_ASSETS_ELSEWHERE ?? 0);
const ASSETS_ELSEWHERE_OPTION: Record<string, unknown> | null = { assetOrigin: "https://assets.shop.example" };
/** Bytes of HTML per mapping: the consumer never reads it, and seeding 100,000 mappings stays quick. */
const HTML_BYTES = 256;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const VIEWS_A_DAY = PLATFORM.viewsPerMonth / (MONTH_SECONDS / 86_400);
const GOALS = { cost: 1, kvReads: 0.3, rowsWritten: 0.2, workerRequests: 1.05, queueOps: 0.5 };
const READ_ROUTES = {
  dashboard: ["/api/user/stats", "/api/analytics", "/api/mappings"],
  poll: ["/api/user/stats", "/api/analytics"],
};

export interface PlatformHeadlines {
  rowsWritten: number;
  kvReads: number;
  queueOps: number;
  workerRequests: number;
  /** The same with every edge website's assets on another host (the sample page measured both ways; computed). */
  workerRequestsAssetsElsewhere: number;
  cost: number;
  cpu: CpuReport;
}

interface Read {
  at: number;
  customer: number;
  kind: keyof typeof READ_ROUTES;
}

/** The reads of the volume run: dashboards (a customer uniformly, Poisson at 3 a day each) and the pollers' polls. */
function readSchedule(startMs: number, minutes: number, seed: number): Read[] {
  const random = seededRandom(seed);
  const reads: Read[] = [];
  const perMs = (PLATFORM.customers * PLATFORM.dashboardReadsPerDay) / DAY_MS;
  const end = startMs + minutes * MINUTE_MS;
  for (let t = startMs - Math.log(1 - random()) / perMs; t < end; t -= Math.log(1 - random()) / perMs) {
    reads.push({ at: Math.floor(t), customer: 1 + Math.floor(random() * PLATFORM.customers), kind: "dashboard" });
  }
  for (let c = 1; c <= PLATFORM.pollers; c++) {
    const offset = Math.floor(random() * PLATFORM.pollEveryMs);
    for (let t = startMs + offset; t < end; t += PLATFORM.pollEveryMs) reads.push({ at: t, customer: c, kind: "poll" });
  }
  return reads.sort((a, b) => a.at - b.at);
}

/** Seeds the platform's customers and mappings (bulk SQL); answers the first mapping's id. */
async function seedPlatform({ db }: BenchWorker): Promise<number> {
  const s = PLATFORM.scenario;
  await db
    .prepare(
      `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ?2)
       INSERT INTO users (id, email, email_verified, created_at, request_limit, content_version)
       SELECT printf('b%d%014d', ?1, n), printf('c%d@s%d.bench.example', n, ?1), 1, 0,
         CASE WHEN n % ?3 = 0 THEN 1e12 END, ?4 FROM c`,
    )
    // Their content last changed a day ago, as on a steady day (a version is set by every change of URL entries).
    .bind(s, PLATFORM.customers, PLATFORM.limitedEvery, Date.now() - DAY_MS)
    .run();
  const offsets = mappingOffsets();
  const content = htmlSql("(o + i)", HTML_BYTES, "?2");
  // Customers in groups of about 10,000 mappings, each customer's in order, so that their ids run in order.
  for (let from = 1; from <= PLATFORM.customers;) {
    const group: [number, number, number][] = [];
    for (let n = 0; from <= PLATFORM.customers && n < 10_000; from++) {
      group.push([from, mappedOf(from), offsets[from]!]);
      n += mappedOf(from);
    }
    await db
      .prepare(
        `WITH RECURSIVE cs(c, n, o) AS (SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM json_each(?1) j),
           m(c, i, o, n) AS (SELECT c, 1, o, n FROM cs UNION ALL SELECT c, i + 1, o, n FROM m WHERE i < n)
         INSERT INTO url_mappings (url, normalized_url, html_content, published_at, user_id, created_at)
         SELECT 'https://www.s${s}c' || c || '.example/products/item-' || i || '/',
           's${s}c' || c || '.example/products/item-' || i, ${content.sql}, 1, printf('b${s}%014d', c), 1
         FROM m ORDER BY c, i`,
      )
      .bind(JSON.stringify(group), content.filler)
      .run();
  }
  const ids = await db
    .prepare(`SELECT min(id) AS first, max(id) AS last, count(*) AS n FROM url_mappings WHERE user_id LIKE ?1`)
    .bind(`b${s}%`)
    .first<{ first: number; last: number; n: number }>();
  const total = offsets[PLATFORM.customers + 1]!;
  if (!ids || ids.n !== total || ids.last - ids.first + 1 !== total)
    throw new Error("platform mapping ids not in order");
  return ids.first;
}

/**
 * The counter rows earlier days left for these pages, as on a steady day of production, where a page's first view
 * ever is rare: counts 0 (what is counted later is what was sent), Last Accessed and latest day three days back (so
 * the run pays for moving each page's latest day to its series); but the rows of the day's new URLs of a customer who
 * used them up before the run (`newUrlsUsed`; taken to be their most viewed pages without a mapping) are today's, an
 * hour before the run. Their URL search entries are left out (the insert trigger is dropped meanwhile: nothing here
 * searches). The month's pass of old per-URL days is then marked done (ROUTES.monthPassDone), as on every day of a
 * month but its first.
 */
async function seedEarlierCounters(
  { db }: BenchWorker,
  pages: Map<string, { c: number; item: number }>,
  first: number,
  startMs: number,
  used: number[],
) {
  const earlier = Date.now() - 3 * DAY_MS;
  const day = new Date(earlier).toISOString().slice(0, 10);
  const lastHour = startMs - 3_600_000;
  const today = new Date(startMs).toISOString().slice(0, 10);
  const rowOfToday = (c: number, item: number) =>
    used[c - 1]! >= UNMAPPED_URLS_PER_DAY && item > mappedOf(c) && item <= mappedOf(c) + UNMAPPED_URLS_PER_DAY;
  const offsets = mappingOffsets();
  const trigger = await db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'url_stats_search_after_insert'`)
    .first<string>("sql");
  if (trigger) await db.prepare(`DROP TRIGGER url_stats_search_after_insert`).run();
  const rows = [...pages.values()].map(({ c, item }) => [
    userIdOf(PLATFORM.scenario, c),
    `s${PLATFORM.scenario}c${c}.example/products/item-${item}`,
    item <= mappedOf(c) ? first + offsets[c]! + item - 1 : null,
    rowOfToday(c, item) ? 1 : 0,
  ]);
  for (let i = 0; i < rows.length; i += 5_000) {
    await db
      .prepare(
        `INSERT INTO url_stats (user_id, url, hits, deliveries, last_accessed, last_accessed_hour, latest_day, mapping_id)
         SELECT j.value ->> 0, j.value ->> 1, 0, 0, iif(j.value ->> 3, ?5, ?2), iif(j.value ->> 3, ?6, ?3),
           iif(j.value ->> 3, ?7, ?4), j.value ->> 2
         FROM json_each(?1) j`,
      )
      .bind(
        JSON.stringify(rows.slice(i, i + 5_000)),
        earlier,
        Math.floor(earlier / 3_600_000),
        day,
        lastHour,
        Math.floor(lastHour / 3_600_000),
        today,
      )
      .run();
  }
  if (trigger) await db.prepare(trigger).run();
}

/**
 * Per customer (index c - 1), how many of the day's new URLs (count.ts: the first `UNMAPPED_URLS_PER_DAY` pages
 * without a mapping seen in a day get rows of their own) the day has used before `startMs`: as many as the model's
 * traffic since midnight sees pages without a mapping (`unmappedPagesSeen`).
 */
function newUrlsUsed(startMs: number): number[] {
  const dayShare = (startMs - utcMidnight(startMs)) / DAY_MS;
  return Array.from({ length: PLATFORM.customers }, (_, i) =>
    unmappedPagesSeen(i + 1, VIEWS_A_DAY, dayShare, UNMAPPED_URLS_PER_DAY),
  );
}

/**
 * The customers' day before the run, which starts at noon (counts 0, as for the earlier days' rows): their counters'
 * newest day is today with its new URLs used as `newUrlsUsed` says, and a customer who used them up has today's
 * "other pages" row (and rows of today for their new URLs: `seedEarlierCounters`). Without it every customer's day
 * would start afresh at noon: the largest ones' views of new URLs would all be held with their row not sure at
 * handoff (`known` 0), so that their first polls of the analytics list settled (docs/decisions.md, "Issue 43: the
 * pollers' reads"), where on a real day they use up their new URLs within minutes of midnight.
 */
async function seedTheDaySoFar({ db }: BenchWorker, startMs: number, used: number[]) {
  const today = new Date(startMs).toISOString().slice(0, 10);
  await db
    .prepare(
      `INSERT INTO usage_counters (user_id, latest_day, latest_day_unmapped_urls)
       SELECT printf('b%d%014d', ?1, j.key + 1), ?2, j.value FROM json_each(?3) j`,
    )
    .bind(PLATFORM.scenario, today, JSON.stringify(used))
    .run();
  const lastHour = startMs - 3_600_000;
  await db
    .prepare(
      `INSERT INTO url_stats (user_id, url, hits, deliveries, last_accessed, last_accessed_hour, latest_day)
       SELECT printf('b%d%014d', ?1, j.key + 1), ?2, 0, 0, ?3, ?4, ?5 FROM json_each(?6) j WHERE j.value >= ?7`,
    )
    .bind(
      PLATFORM.scenario,
      OTHER_PAGES,
      lastHour,
      Math.floor(lastHour / 3_600_000),
      today,
      JSON.stringify(used),
      UNMAPPED_URLS_PER_DAY,
    )
    .run();
  return used.filter((n) => n >= UNMAPPED_URLS_PER_DAY).length;
}

/** What the hot path's locations measured, by part. */
interface Locations {
  views: number;
  edgeViews: number;
  pageViews: Counts;
  edgeAssets: Counts;
  assetRequests: number;
  /** The warm-ups' requests (page views and subresources) and their seconds. */
  warmUpRequests: number;
  warmUpSeconds: number;
}

export async function platform(
  worker: BenchWorker,
  fail: (message: string) => void,
  /** A mapped page of 2 KB whose delivery entries are in the store: the CPU measure's page. */
  cpuPage: { u: string; url: string },
): Promise<PlatformHeadlines> {
  const { db, call, origin } = worker;
  const started = performance.now();
  const consumer = worker.config.queueConsumers[ANALYTICS_QUEUE_NAME];
  if (!consumer?.maxBatchSize || !consumer.maxBatchTimeout) throw new Error(`no consumer of ${ANALYTICS_QUEUE_NAME}`);

  console.log(`\nThe realistic platform (issue 43): the model's parameters`);
  const param = (name: string, value: string | number) =>
    console.log(`  ${name} = ${typeof value === "number" ? String(value) : value}`);
  param("customers", PLATFORM.customers);
  param("customer shares", "Zipf(1)");
  param("pages", PLATFORM.pages);
  param("pages of a customer", "its share of pages, at least 10 (customer 1: " + pagesOf(1) + ")");
  param("page views within a customer", "Zipf(1) over its pages");
  param("mapped share of a customer's pages", `${PLATFORM.mappedShare} (its most viewed; at least 1, at most 100000)`);
  param("every page view asks /api/content", "yes (the snippet is on every page)");
  param("customers on plans with a limit", `1 in ${PLATFORM.limitedEvery}`);
  param("crawlers", `${PLATFORM.crawlerShare} (uniform over a customer's pages: the long tail)`);
  param("visitors a day", `views a day / 3`);
  param("views a month", PLATFORM.viewsPerMonth);
  param("locations", PLATFORM.locations);
  param("locations sampled", LOCATIONS_SAMPLED);
  param("isolates per location", ISOLATES_PER_LOCATION);
  // A location's warm-up: the longest its cache keeps an entry, unless set, so that it measures steady state; the
  // same-host subresources only for as long as what they read (edge websites' entries, states) can be kept.
  const lifetimes = await call<CacheLifetimes>(ROUTES.cacheLifetimes);
  const longest = Math.max(lifetimes.url, lifetimes.state, lifetimes.edgeHost);
  const minutes = Math.round(num("BENCH_LOCATION_WARMUP_MINUTES", longest / MINUTE_MS));
  const warmUp = {
    minutes,
    subresourcesMs: Math.min(Math.max(lifetimes.edgeHost, lifetimes.state) + MINUTE_MS, minutes * MINUTE_MS),
  };
  param(
    "location warm-up",
    `${warmUp.minutes} simulated minutes (metered apart, not in the figures; the location's cache keeps a URL's entry ` +
      `${lifetimes.url / MINUTE_MS} minutes, a state and an edge website's entry up to ` +
      `${Math.max(lifetimes.state, lifetimes.edgeHost) / MINUTE_MS} while unchanged; same-host subresources in its last ` +
      `${warmUp.subresourcesMs / MINUTE_MS})`,
  );
  param("measured minutes per location", LOCATION_MINUTES);
  param("edge share", PLATFORM.edgeShare);
  param("browser cache share of same-host subresources", BROWSER_CACHE_SHARE);
  param("edge websites serving assets elsewhere", ASSETS_ELSEWHERE_SHARE);
  param("dashboard reads a day per customer", PLATFORM.dashboardReadsPerDay);
  param("dashboard read", READ_ROUTES.dashboard.join(" + "));
  param("pollers", `${PLATFORM.pollers} (the largest customers, every minute: ${READ_ROUTES.poll.join(" + ")})`);
  param("simulated minutes at the full rate", MINUTES);
  const shardSetting = { ANALYTICS_REDUCER_SHARDS: worker.config.reducerShards };
  param("reducer shards", reducerShards(shardSetting));

  // Seeding.
  const firstMappingId = await seedPlatform(worker);
  const mappings = mappingOffsets()[PLATFORM.customers + 1]!;
  const startMs = utcMidnight(Date.now()) + 12 * 3_600_000;
  const used = newUrlsUsed(startMs);
  const newUrlsUsedUp = await seedTheDaySoFar(worker, startMs, used);
  const seed = 43;
  const volumeViews = new PlatformTraffic(firstMappingId, PLATFORM.viewsPerMonth, startMs, seed).until(
    startMs + MINUTES * MINUTE_MS,
  );
  // Location l's measured minutes start at measuredFrom[l], after its warm-up; one location's span after another's.
  const measuredFrom = Array.from(
    { length: LOCATIONS_SAMPLED },
    (_, l) => startMs + (MINUTES + 60 + warmUp.minutes + l * (warmUp.minutes + LOCATION_MINUTES + 10)) * MINUTE_MS,
  );
  const laneViews = measuredFrom.map((from, l) =>
    new PlatformTraffic(
      firstMappingId,
      PLATFORM.viewsPerMonth / PLATFORM.locations,
      from - warmUp.minutes * MINUTE_MS,
      100 + l,
    ).until(from + LOCATION_MINUTES * MINUTE_MS),
  );
  const pages = new Map<string, { c: number; item: number }>();
  for (const v of [...volumeViews, ...laneViews.flat()]) pages.set(v.normalizedUrl, { c: v.customer, item: v.item });
  await seedEarlierCounters(worker, pages, firstMappingId, startMs, used);
  await call(ROUTES.monthPassDone, "POST");
  // The delivery store for the locations' views: every customer's state and the mapped pages' entries.
  const entries = new Map<string, { u: string; url: string }>();
  for (const v of laneViews.flat()) {
    const home = platformUrl(v.customer, 1);
    entries.set(home, { u: v.userId, url: `s${PLATFORM.scenario}c${v.customer}.example/products/item-1` });
    if (v.mappingId !== null) entries.set(v.normalizedUrl, { u: v.userId, url: v.normalizedUrl });
  }
  // By customer, so that a call writes each customer's state once.
  const stored = [...entries.values()].sort((a, b) => (a.u < b.u ? -1 : a.u > b.u ? 1 : 0));
  // Written (and recorded in the change feed) an hour before the simulated noon, whatever the real time of the run:
  // before the locations follow the feed, and not yet old enough for the minute cron's purge of the feed.
  const written = { [HEADERS.clock]: String(startMs - 3_600_000) };
  for (let i = 0; i < stored.length; i += 500) await call(ROUTES.store, "POST", stored.slice(i, i + 500), written);
  const edgeCustomers = [...new Set(laneViews.flat().map((v) => v.customer))];
  const stand = await startStandInOrigin();
  const hostOf = (c: number) => `s${PLATFORM.scenario}c${c}.example`;
  for (let i = 0; i < edgeCustomers.length; i += 500) {
    await call(
      ROUTES.edgeHosts,
      "POST",
      edgeCustomers
        .slice(i, i + 500)
        .map((c) => ({ hostname: hostOf(c), userId: userIdOf(PLATFORM.scenario, c), origin: stand.origin })),
      written,
    );
  }
  const reads = readSchedule(startMs, MINUTES, seed + 1);
  const keys = new Map<number, string>();
  for (const c of new Set(reads.map((r) => r.customer))) {
    keys.set(c, (await call<{ key: string }>(`${ROUTES.apiKey}?u=${userIdOf(PLATFORM.scenario, c)}`, "POST")).key);
  }
  console.log(
    `  seeded ${fmt(PLATFORM.customers)} customers, ${fmt(mappings)} mappings, the earlier days' counters of the ` +
      `${fmt(pages.size)} pages the run sees, ${fmt(stored.length)} delivery entries and ${fmt(keys.size)} readers' API ` +
      `keys in ${fmt((performance.now() - started) / 1000, 1)} s`,
  );
  console.log(
    `  the customers' day before the run (noon): ${fmt(newUrlsUsedUp)} of them used up the day's ` +
      `${fmt(UNMAPPED_URLS_PER_DAY)} new URLs in the model's first half day (seeded with today's "other pages" row and their most viewed pages without a mapping as those URLs' rows of today)`,
  );

  // The volume run, with the reads at their times.
  const volumeStarted = performance.now();
  const spec: SimulationSpec = {
    label: "the platform",
    platformFirstMappingId: firstMappingId,
    viewsPerMonth: PLATFORM.viewsPerMonth,
    startMs,
    seed,
    maxBatchSize: consumer.maxBatchSize,
    maxBatchTimeoutMs: consumer.maxBatchTimeout * 1000,
    dailyCronMinute: dailyCronMinute(worker.config.crons),
    isolates: ISOLATES,
    dayBoundary: true,
  };
  await call(ROUTES.simStart, "POST", spec);
  const advance = (until: number) => call<SimulationProgress>(ROUTES.simAdvance, "POST", { until });
  const readFailures: string[] = [];
  const request = async (path: string, meter: string, clock: number, headers: Record<string, string> = {}) => {
    const res = await fetch(`${origin}${path}`, {
      headers: { [HEADERS.meter]: meter, [HEADERS.clock]: String(clock), ...headers },
    });
    const body = await res.text();
    return { status: res.status, body };
  };
  // Before each poll of the analytics list, what the route will do (ROUTES.listOverlay): add held counts, or settle and why.
  const pollOverlay = { overlaid: 0, settled: new Map<string, number>() };
  let nextRead = 0;
  for (let minute = 1; minute <= MINUTES; minute++) {
    const end = startMs + minute * MINUTE_MS;
    for (; nextRead < reads.length && reads[nextRead]!.at < end; nextRead++) {
      const read = reads[nextRead]!;
      await advance(read.at);
      for (const path of READ_ROUTES[read.kind]) {
        if (read.kind === "poll" && path === "/api/analytics") {
          const u = userIdOf(PLATFORM.scenario, read.customer);
          const { settle } = await call<{ settle: string | null }>(`${ROUTES.listOverlay}?u=${u}&at=${read.at}`);
          if (settle === null) pollOverlay.overlaid++;
          else pollOverlay.settled.set(settle, (pollOverlay.settled.get(settle) ?? 0) + 1);
        }
        const res = await request(path, `reads ${read.kind}`, read.at, { "X-API-Key": keys.get(read.customer)! });
        if (res.status !== 200) readFailures.push(`${path} answered ${res.status}: ${res.body.slice(0, 200)}`);
      }
    }
    const progress = await advance(end);
    process.stdout.write(
      `  volume run: minute ${minute} of ${MINUTES}, ${fmt(progress.views)} views, ${fmt(progress.batches)} batches, ` +
        `${fmt((performance.now() - volumeStarted) / 1000)} s\n`,
    );
  }
  const report = await call<SimulationReport>(ROUTES.simFinish, "POST");
  if (report.lostMessages) fail(`the platform: ${fmt(report.lostMessages)} messages lost after retries`);
  if (readFailures.length) fail(`${readFailures.length} reads failed, the first: ${readFailures[0]}`);
  const readCounts = {
    dashboard: await call<Counts>(`${ROUTES.meter}?source=${encodeURIComponent("reads dashboard")}`),
    poll: await call<Counts>(`${ROUTES.meter}?source=${encodeURIComponent("reads poll")}`),
  };
  const readSettles = await call<ReadSettles>(ROUTES.readSettles);
  const volumeSeconds = (performance.now() - volumeStarted) / 1000;

  // The edge page: the real proxy on the stand-in origin's page.
  const edgePage = async (site: Record<string, unknown>) => {
    const page = platformUrl(1, 1);
    const res = await fetch(`${origin}${ROUTES.edgePage}`, {
      method: "POST",
      headers: { [HEADERS.meter]: "edge sample", "Content-Type": "application/json" },
      body: JSON.stringify({ site: { userId: userIdOf(PLATFORM.scenario, 1), origin: stand.origin, ...site }, page }),
    });
    const body = await res.text();
    if (res.status !== 200 || !body.includes(html(1, HTML_BYTES))) {
      fail(`the edge proxy answered ${res.status} for the sample page, without its mapping's content`);
    }
    return Number(res.headers.get(HEADERS.subresourcesLeft));
  };
  const left = await edgePage({});
  const leftElsewhere = ASSETS_ELSEWHERE_OPTION ? await edgePage(ASSETS_ELSEWHERE_OPTION) : left;
  await stand.close();

  // The hot path by location.
  const locationsStarted = performance.now();
  const configured = seededRandom(4344);
  const locations = await runLocations(worker, laneViews, { measuredFrom, ...warmUp }, fail, () =>
    configured() < ASSETS_ELSEWHERE_SHARE ? leftElsewhere : left,
  );
  const locationsSeconds = (performance.now() - locationsStarted) / 1000;

  // Every view counted once: the locations' views went through Miniflare's queue; fold until they are in.
  // The views sent: the volume run's, the locations' (their warm-ups included) and the edge sample's pages.
  const views = [...volumeViews, ...laneViews.flat()];
  const edgeSamples = ASSETS_ELSEWHERE_OPTION ? 2 : 1;
  const expected = {
    customers: views.length + edgeSamples,
    urls: views.length + edgeSamples,
    mappings: views.filter((v) => v.mappingId !== null).length + edgeSamples,
  };
  const counted = () =>
    db
      .prepare(
        `SELECT (SELECT coalesce(sum(total_requests), 0) FROM usage_counters WHERE user_id LIKE ?1) AS customers,
           (SELECT coalesce(sum(hits), 0) FROM url_stats WHERE user_id LIKE ?1) AS urls,
           (SELECT coalesce(sum(requests), 0) FROM mapping_stats WHERE mapping_id BETWEEN ?2 AND ?3)
             + (SELECT coalesce(sum(mapping_requests), 0) FROM url_stats
               WHERE user_id LIKE ?1 AND mapping_id BETWEEN ?2 AND ?3) AS mappings`,
      )
      .bind(`b${PLATFORM.scenario}%`, firstMappingId, firstMappingId + mappings - 1)
      .first<{ customers: number; urls: number; mappings: number }>();
  // Until all are in, or a minute passes without one more counted (the warm-ups leave a backlog).
  let lastProgress = performance.now();
  let c = await counted();
  while (c!.urls < expected.urls && performance.now() - lastProgress < 60_000) {
    await new Promise((r) => setTimeout(r, 500));
    await call(ROUTES.fold, "POST").catch(() => undefined);
    const before = c!.urls;
    c = await counted();
    if (c!.urls > before) lastProgress = performance.now();
  }
  const exact = c!.customers === expected.customers && c!.urls === expected.urls && c!.mappings === expected.mappings;
  if (!exact) {
    fail(
      `the platform: ${fmt(expected.urls)} views sent (${fmt(expected.mappings)} mapped), counted ${fmt(c!.customers)} by customer, ${fmt(c!.urls)} by URL, ${fmt(c!.mappings)} by mapping`,
    );
  }

  // CPU per /api/content, in the isolate.
  const cpu = await call<CpuReport>(
    `${ROUTES.cpu}?u=${cpuPage.u}&url=${encodeURIComponent(cpuPage.url)}&calls=${CPU_CALLS}&rounds=${CPU_ROUNDS}`,
    "POST",
  );
  if (cpu.perCall.okAnswers !== 1 || cpu.perCall.messages !== 1) {
    fail(
      `CPU measure: /api/content answered 200 for ${cpu.perCall.okAnswers} and sent ${cpu.perCall.messages} messages per call`,
    );
  }

  // Per page view at 10,000 million a month.
  const V = report.views;
  const r = report.counts;
  const stretch = per(
    sumCounts(r.consumer, r.minuteCron, r.laterPurge, r.queue, readCounts.dashboard, readCounts.poll),
    V,
  );
  // The stretch's closing settle, per page it held, times the pages the reducers settle in a day (the model's count).
  const daySettles = pagesSettledADay(
    VIEWS_A_DAY,
    reducerShards(shardSetting),
    // As the handoff routes them: a metered customer's views to their shard, the others' spread by URL.
    (c, item) =>
      hasLimit(c)
        ? reducerShardOf(shardSetting, userIdOf(PLATFORM.scenario, c))
        : spreadShardOf(shardSetting, userIdOf(PLATFORM.scenario, c), normalizedUrlOf(PLATFORM.scenario, c, item)),
    MAX_HELD_SUMS,
  );
  const settlesOfADay = scaled(per(r.settle, report.pagesSeen), daySettles.pages / VIEWS_A_DAY);
  const ofTheDay = sumCounts(per(r.dailyCron, VIEWS_A_DAY), settlesOfADay);
  const hot = per(withoutQueue(locations.pageViews), locations.views);
  const assets = per(locations.edgeAssets, locations.views);
  const all = sumCounts(stretch, ofTheDay, hot, assets);
  const workerRequests = all.fetch + all.queue + all.scheduled;
  const workerRequestsAssetsElsewhere =
    workerRequests - assets.fetch + (left > 0 ? assets.fetch * (leftElsewhere / left) : 0);
  const month = scaled(all, PLATFORM.viewsPerMonth);
  const cost = monthlyCost(
    usageOf(month, (median(cpu.contentMemoMiss) / 1000) * PLATFORM.viewsPerMonth, report.relayShards),
  );
  const perMillion = cost.total / (PLATFORM.viewsPerMonth / 1e6);

  const parts = (key: keyof Counts) =>
    `volume run ${perView(per(sumCounts(r.consumer, r.minuteCron, r.laterPurge, r.queue), V)[key])} ` +
    `(consumer ${perView(per(r.consumer, V)[key])}, minute cron ${perView(per(r.minuteCron, V)[key])}, purge ` +
    `${perView(per(r.laterPurge, V)[key])}), dashboards ` +
    `${perView(per(readCounts.dashboard, V)[key])}, pollers ${perView(per(readCounts.poll, V)[key])}, daily cron and ` +
    `the reducers' settles of a day ${perView(ofTheDay[key])}, page views ${perView(hot[key])}, edge subresources ${perView(assets[key])}`;
  console.log(
    `\n  volume run: ${fmt(MINUTES)} simulated minutes, ${fmt(V)} views, ${fmt(report.messages)} messages, ` +
      `${fmt(report.batches)} batches, ${report.minuteCrons} minute crons, ${fmt(reads.length)} reads ` +
      `(${fmt(reads.filter((x) => x.kind === "dashboard").length)} dashboards, ${fmt(reads.filter((x) => x.kind === "poll").length)} polls), ` +
      `${fmt(report.pagesSeen)} pages seen, in ${fmt(volumeSeconds)} s; the closing settle wrote ${fmt(r.settle.d1RowsWritten)} D1 rows`,
  );
  console.log(
    `  locations: ${fmt(locations.views)} page views measured at ${LOCATIONS_SAMPLED} location${LOCATIONS_SAMPLED === 1 ? "" : "s"} (${fmt(locations.edgeViews)} through edge ` +
      `websites, with ${fmt(locations.assetRequests)} same-host subresource requests), each after a warm-up of ${warmUp.minutes} ` +
      `simulated minutes (${fmt(locations.warmUpRequests)} requests in all, ${fmt(locations.warmUpSeconds)} s), in ` +
      `${fmt(locationsSeconds)} s; Cache API per page view: ` +
      `${perView(hot.cacheMatches)} matches (${perView(hot.cacheHits)} hits), ${perView(hot.cachePuts)} puts, ${perView(hot.cacheDeletes)} deletes (free); KV keys read per page view: ` +
      `${perView(hot.kvStateReads)} states, ${perView(hot.kvUrlReads)} URL entries, ${perView(hot.kvEdgeHostReads)} edge hosts, ` +
      `${perView(hot.kvReads - hot.kvStateReads - hot.kvUrlReads - hot.kvEdgeHostReads)} others; by edge subresources ` +
      `${perView(assets.kvStateReads)} states, ${perView(assets.kvUrlReads)} URL entries, ${perView(assets.kvEdgeHostReads)} edge hosts`,
  );
  console.log(
    `  edge sample page: ${left} same-host subresources left in the real edge proxy's answer as the model configures the ` +
      `website${ASSETS_ELSEWHERE_OPTION ? `, ${leftElsewhere} with its assets elsewhere` : " (no option to serve them elsewhere yet)"}; ` +
      `Worker requests per edge page view = ${perView(1 + left * (1 - BROWSER_CACHE_SHARE))} as configured` +
      (ASSETS_ELSEWHERE_OPTION
        ? `, ${perView(1 + leftElsewhere * (1 - BROWSER_CACHE_SHARE))} with assets elsewhere`
        : ""),
  );
  const polls = pollOverlay.overlaid + [...pollOverlay.settled.values()].reduce((a, b) => a + b, 0);
  const why = [...pollOverlay.settled].sort(([, a], [, b]) => b - a).map(([reason, n]) => `${reason} ${fmt(n)}`);
  console.log(
    `  pollers' reads: ${fmt(polls)} polls of /api/analytics, ${fmt(pollOverlay.overlaid)} added held counts, ` +
      `${fmt(polls - pollOverlay.overlaid)} settled${why.length ? ` (${why.join(", ")})` : ""}; the reducers' settles ` +
      `asked during the polls: ${READ_ROUTES.poll.map((path) => `${path} ${fmt(readSettles[`reads poll ${path}`] ?? 0)}`).join(", ")}`,
  );
  console.log(`  every view counted once by customer, URL and mapping: ${exact ? "yes" : "no"}`);
  console.log(`\n  per page view, by part (measured; what is computed is said):`);
  const line = (label: string, key: keyof Counts) =>
    console.log(`    ${pad(label, 24)} ${lpad(perView(all[key]), 8)}  ${parts(key)}`);
  line("D1 rows written", "d1RowsWritten");
  line("D1 rows read", "d1RowsRead");
  line("KV reads", "kvReads");
  line("queue operations", "queueOps");
  line("Worker fetches", "fetch");
  line("Durable Object requests", "doRequests");
  line("Rate Limiting calls", "rateLimitCalls");
  console.log(
    `    computed, not run: the browser's cache share of same-host subresources (each sent with probability ` +
      `${1 - BROWSER_CACHE_SHARE}); the daily cron over a day's ${fmt(VIEWS_A_DAY)} views; the reducers' settles of a day: ` +
      `the closing settle's counts per page it held (${fmt(report.pagesSeen)} pages, ${perView(r.settle.d1RowsWritten / Math.max(1, report.pagesSeen))} ` +
      `D1 rows each) x ${fmt(daySettles.pages)} pages settled in a day by ${reducerShards(shardSetting)} shards of at most ` +
      `${fmt(MAX_HELD_SUMS)} sums (${fmt(daySettles.capSettles)} settles at a cap), from the traffic model ` +
      `(platform-model.ts pagesSettledADay); CPU from the isolate's measure`,
  );
  console.log(
    `\n  cost at ${fmt(PLATFORM.viewsPerMonth / 1e6)} million views a month (list prices checked ${PRICES_CHECKED}), by item:`,
  );
  for (const item of cost.items) {
    if (item.dollars === 0) continue;
    console.log(
      `    ${pad(item.label, 38)} ${lpad(dollars(item.dollars / (PLATFORM.viewsPerMonth / 1e6)), 8)} per M views`,
    );
  }
  console.log(
    `    ${pad("total, with the plan's $5", 38)} ${lpad(dollars(perMillion), 8)} per M views (Rate Limiting calls not ` +
      `priced: no list price known; storage not counted)`,
  );
  printCpu(cpu);
  return {
    rowsWritten: all.d1RowsWritten,
    kvReads: all.kvReads,
    queueOps: all.queueOps,
    workerRequests,
    workerRequestsAssetsElsewhere,
    cost: perMillion,
    cpu,
  };
}

/** The hot path at the sampled locations, one after another, through the real app over HTTP. */
async function runLocations(
  { origin, call }: BenchWorker,
  lanes: PlatformView[][],
  /** Per lane, when its measured views start (those before are its warm-up), and the warm-up's end that sends subresources. */
  warmUp: { measuredFrom: number[]; subresourcesMs: number },
  fail: (message: string) => void,
  /** The same-host subresources an edge page view asks for (with the browser's cache empty). */
  subresources: () => number,
): Promise<Locations> {
  const random = seededRandom(4343);
  const offsets = mappingOffsets();
  let edgeViews = 0;
  let assetRequests = 0;
  let views = 0;
  let warmUpRequests = 0;
  let warmUpMs = 0;
  let failures = 0;
  const send = async (path: string, meter: string, view: PlatformView, location: number, isolate: number) => {
    const res = await fetch(`${origin}${path}`, {
      headers: {
        "User-Agent": view.userAgent,
        Referer: view.referer,
        "CF-Connecting-IP": view.visitor,
        [HEADERS.meter]: meter,
        [HEADERS.clock]: String(view.timestamp),
        [HEADERS.location]: String(location),
        [HEADERS.isolate]: String(isolate),
      },
    });
    return { status: res.status, body: await res.text() };
  };
  for (const [location, lane] of lanes.entries()) {
    const from = warmUp.measuredFrom[location]!;
    const inFlight = new Set<Promise<void>>();
    const laneStarted = performance.now();
    let warm = false;
    for (const view of lane) {
      const measured = view.timestamp >= from;
      const early = view.timestamp < from - warmUp.subresourcesMs;
      if (measured && !warm) {
        warm = true;
        warmUpMs += performance.now() - laneStarted;
        process.stdout.write(
          `  locations: location ${location + 1} of ${lanes.length} warmed up, ${fmt(warmUpRequests)} warm-up requests ` +
            `so far, ${fmt((performance.now() - laneStarted) / 1000)} s\n`,
        );
      }
      const isolate = Math.floor(random() * ISOLATES_PER_LOCATION);
      const edge = random() < PLATFORM.edgeShare;
      const work = async () => {
        const res = await send(
          `${ROUTES.content}?u=${view.userId}&url=${encodeURIComponent(view.url)}`,
          measured ? "locations page views" : "locations warm-up",
          view,
          location,
          isolate,
        );
        const expected = view.mappingId === null ? "" : html(offsets[view.customer]! + view.item, HTML_BYTES);
        const ok = view.mappingId === null ? res.status === 204 : res.status === 200 && res.body === expected;
        if (!ok) failures++;
        if (!edge || view.userAgent === CRAWLER_USER_AGENT || early) return;
        if (measured) edgeViews++;
        // The same-host subresources the browser does not hold, through the edge's host routing.
        for (let i = subresources(); i > 0; i--) {
          if (random() < BROWSER_CACHE_SHARE) continue;
          if (measured) assetRequests++;
          else warmUpRequests++;
          const asset = await send(
            `${ROUTES.edgeAsset}?host=${`s${PLATFORM.scenario}c${view.customer}.example`}&visitor=${view.visitor}`,
            measured ? "locations edge subresources" : "locations warm-up",
            view,
            location,
            isolate,
          );
          if (asset.status !== 200) failures++;
        }
      };
      if (measured) views++;
      else warmUpRequests++;
      const p = work().finally(() => inFlight.delete(p));
      inFlight.add(p);
      while (inFlight.size >= (early ? WARM_UP_IN_FLIGHT : IN_FLIGHT)) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  }
  if (failures) fail(`the locations: ${failures} requests answered other than their page's content (or 204 unmapped)`);
  return {
    views,
    edgeViews,
    assetRequests,
    warmUpRequests,
    warmUpSeconds: warmUpMs / 1000,
    pageViews: await call<Counts>(`${ROUTES.meter}?source=${encodeURIComponent("locations page views")}`),
    edgeAssets: await call<Counts>(`${ROUTES.meter}?source=${encodeURIComponent("locations edge subresources")}`),
  };
}

/** The five headline figures, each with its goal. */
export function printPlatformHeadlines(h: PlatformHeadlines) {
  console.log(`\n  The realistic platform's operations per page view (issue 43):`);
  const headline = (label: string, value: string, goal: string, met: boolean) =>
    console.log(`  ${label} = ${value}  (goal ${goal}: ${verdict(met)})`);
  headline(
    "D1 rows written per page view",
    h.rowsWritten.toFixed(3),
    `<= ${GOALS.rowsWritten}`,
    h.rowsWritten <= GOALS.rowsWritten,
  );
  headline("KV reads per page view", h.kvReads.toFixed(3), `<= ${GOALS.kvReads}`, h.kvReads <= GOALS.kvReads);
  headline(
    "queue operations per page view",
    h.queueOps.toFixed(3),
    `<= ${GOALS.queueOps}`,
    h.queueOps <= GOALS.queueOps,
  );
  headline(
    "Worker requests per page view",
    h.workerRequests.toFixed(3),
    `<= ${GOALS.workerRequests}, edge pages and their subresources, queue batches and crons included; ` +
      `${h.workerRequestsAssetsElsewhere.toFixed(3)} if every edge website served its assets from another host`,
    h.workerRequests <= GOALS.workerRequests,
  );
  headline(
    "cost per million page views",
    `$${h.cost.toFixed(2)}`,
    `<= $${GOALS.cost.toFixed(2)}, at ${fmt(PLATFORM.viewsPerMonth / 1e6)} million views a month`,
    h.cost <= GOALS.cost,
  );
  const ratio = median(h.cpu.contentAudiencesMemoMiss) / median(h.cpu.contentMemoMiss);
  console.log(
    `  CPU per /api/content = ${median(h.cpu.contentMemoMiss).toFixed(1)} µs  (memo cold; the constant route ` +
      `${median(h.cpu.constant).toFixed(1)} µs; for information)`,
  );
  console.log(
    `  CPU per /api/content with 20 audiences on the URL = ${median(h.cpu.contentAudiencesMemoMiss).toFixed(1)} µs  ` +
      `(memo cold; ${ratio.toFixed(2)}x the URL without; goal <= 1.5x: ${verdict(ratio <= 1.5)})`,
  );
}
