/**
 * `npm run bench`: runs the real Worker modules in one workerd through Miniflare's API (not `wrangler dev`, whose
 * local proxy caps the rate), in two parts.
 *
 * The ratio part, for information (its rates measure Miniflare's simulators, not the product), compares, each as
 * requests/s and p50/p99 latency:
 *   (a) a constant 1 KB answer,
 *   (b) the content lookup alone (the delivery store: customer state and URL entry, read, normalise, answer),
 *   (c) the constant answer plus one analytics message sent in waitUntil,
 *   (d) the real content endpoint (the Hono app's /api/content) with its analytics message,
 * with (b), (c) and (d) for four kinds of traffic side by side: one customer of 1 mapping, of 1,000 and of
 * 100,000 mappings, and traffic spread over 1,000 customers with 10 URLs each (10,000 URLs, so that the memo of
 * one entry cannot hide the store). Every mapping holds 2 KB of HTML. It prints b/a and d/c for each, the D1 rows
 * the analytics consumer wrote per page view of (d) (D1's own `meta.rows_written`), the bytes per page view that
 * stay in D1 once the raw window has passed (D1's `size_after`, before the traffic and after the cron's purge, goal
 * <= 20), the snippet's raw and gzip bytes, and whether every enqueued message was counted. Customers and mappings
 * are seeded with bulk SQL, their delivery entries written by the real rebuild (worker/delivery/rebuild.ts).
 * Every route gets the same load: BENCH_CONNECTIONS (10) keep-alive connections, a BENCH_WARMUP_SECONDS (1) warm-up,
 * then BENCH_SECONDS (2) measured, split into BENCH_ROUNDS (2) rounds that visit the routes in turn, so that a
 * change in the machine's background load touches all alike. After every run that enqueued messages the bench
 * waits (at most BENCH_DRAIN_TIMEOUT_SECONDS, 60) until they are counted, so no run pays for another's backlog.
 * BENCH_PLATFORM_ONLY=1 skips the ratio part (to compare reduced runs of the platform part in minutes): only the
 * customer of 1 mapping is seeded, and the CPU measure uses its page.
 *
 * The platform part (platform.ts, issue 43) counts what is billed: every binding call of the real code (meter.mts)
 * on a realistic platform (platform-model.ts: 10,000 customers, 10 million pages, crawlers, dashboards and pollers
 * reading, edge websites with their subresources, 300 locations with their own Cache API) at 10,000 million views a
 * month, compressed in time as platform.ts says (BENCH_PLATFORM_MINUTES at the full rate through the real consumer,
 * crons and reads; sampled locations through the real /api/content over HTTP); it measures CPU per /api/content in
 * the isolate and prices it all at Cloudflare's list prices (prices.ts). It ends with the headline figures and their
 * goals: D1 rows written, KV reads, queue operations and Worker requests per page view, cost per million page views,
 * CPU per /api/content.
 *
 * The Worker under test is scripts/perf/bench/entry.mts, which wraps the real modules and counts every binding
 * call (meter.mts); bindings, compatibility settings, crons and the queue consumer's batching come from
 * wrangler.toml. Exits non-zero on errors (failed requests, wrong answers, analytics messages lost or counted twice),
 * never on a missed goal.
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import {
  fmt,
  lpad,
  numberSetting as num,
  pad,
  runtimeVersions,
  startBenchWorker,
  verdict,
  type BenchWorker,
} from "./harness";
import { combine, runLoad, summarize, type LoadResult, type Summary } from "./load";
import { platform, printPlatformHeadlines } from "./platform";
import { ROUTES, type D1Meter } from "./protocol";
import { HTML_BYTES, seed, type Scenario, type Seeded } from "./seed";

const CONNECTIONS = num("BENCH_CONNECTIONS", 10);
const SECONDS = num("BENCH_SECONDS", 2);
const ROUNDS = Math.round(num("BENCH_ROUNDS", 2));
const WARMUP_SECONDS = num("BENCH_WARMUP_SECONDS", 1);
const DRAIN_TIMEOUT_SECONDS = num("BENCH_DRAIN_TIMEOUT_SECONDS", 60);
const PLATFORM_ONLY = process.env.BENCH_PLATFORM_ONLY === "1";
const CONSTANT_BYTES = 1024;
const BYTES_GOAL = 20;
/** The raw window the purge is run past (wrangler.toml's ANALYTICS_RAW_RETENTION_DAYS, plus a day). */
const PAST_THE_RAW_WINDOW_MS = 8 * 86_400_000;
const SCENARIOS: Scenario[] = [
  { n: 1, name: "1 mapping", customers: 1, mappingsEach: 1 },
  { n: 2, name: "1,000 mappings", customers: 1, mappingsEach: 1_000 },
  { n: 3, name: "100,000 mappings", customers: 1, mappingsEach: 100_000 },
  { n: 4, name: "1,000 customers x 10 URLs", customers: 1_000, mappingsEach: 10 },
];

const problems: string[] = [];
const fail = (message: string) => {
  problems.push(message);
  console.error(`error: ${message}`);
};

interface Phase {
  key: "a" | "b" | "c" | "d";
  scenario: Scenario | null;
  label: string;
  path: (i: number) => string;
  /** Whether each 2xx answer enqueued one analytics message. */
  enqueues: boolean;
  /** Body bytes of each answer. */
  bodyBytes: number;
}

/** The ratio part: (a) to (d) under load, for information; answers the seeded page views. */
async function ratios(worker: BenchWorker): Promise<Seeded> {
  const { mf, origin, db, call } = worker;
  // Seeding: customers and mappings in bulk SQL, then each customer's delivery entries by the real rebuild.
  const seconds = performance.now();
  const seeded = await seed(worker, SCENARIOS);
  const { page } = seeded;
  console.log(
    `\nSeeded ${fmt(SCENARIOS.reduce((n, s) => n + s.customers, 0))} customers and ${fmt(seeded.mappings)} mappings of ` +
      `${fmt(HTML_BYTES)} bytes, with their delivery entries, in ${fmt((performance.now() - seconds) / 1000, 1)} s`,
  );
  /** The database's size as D1 reports it after a statement. */
  const d1Size = async () => (await db.prepare("DELETE FROM delivery_repairs WHERE 0").run()).meta.size_after;
  const sizeBefore = await d1Size();

  const phases: Phase[] = [
    {
      key: "a",
      scenario: null,
      label: "constant 1 KB",
      path: () => ROUTES.constant,
      enqueues: false,
      bodyBytes: CONSTANT_BYTES,
    },
  ];
  for (const s of SCENARIOS) {
    phases.push(
      {
        key: "b",
        scenario: s,
        label: `lookup, ${s.name}`,
        path: (i) => `${ROUTES.lookup}?u=${page(s, i).u}&url=${page(s, i).url}`,
        enqueues: false,
        bodyBytes: HTML_BYTES,
      },
      {
        key: "c",
        scenario: s,
        label: `constant + enqueue, ${s.name}`,
        path: (i) => `${ROUTES.enqueue}?u=${page(s, i).u}&url=${page(s, i).url}&m=${page(s, i).m}`,
        enqueues: true,
        bodyBytes: CONSTANT_BYTES,
      },
      {
        key: "d",
        scenario: s,
        label: `/api/content, ${s.name}`,
        path: (i) => `${ROUTES.content}?u=${page(s, i).u}&url=${page(s, i).url}`,
        enqueues: true,
        bodyBytes: HTML_BYTES,
      },
    );
  }

  // Every route answers what it should before it is measured.
  let enqueued = 0;
  for (const phase of phases) {
    const s = phase.scenario;
    const samples = s ? [0, 1, s.customers * s.mappingsEach - 1] : [0];
    for (const i of samples) {
      const res = await fetch(new URL(phase.path(i), origin));
      const body = await res.text();
      if (res.ok && phase.enqueues) enqueued++;
      const expected = phase.bodyBytes;
      if (res.status !== 200 || Buffer.byteLength(body) !== expected) {
        fail(
          `(${phase.key}) ${phase.label} answered ${res.status} with ${Buffer.byteLength(body)} bytes, expected 200 with ${expected}`,
        );
      } else if (s && (phase.key === "b" || phase.key === "d") && body !== page(s, i).html()) {
        fail(`(${phase.key}) ${phase.label} answered other HTML than mapping ${page(s, i).m}'s`);
      }
    }
  }
  if (problems.length) throw new Error("the routes do not answer as expected");

  const counted = async () =>
    (await db
      .prepare(
        `SELECT coalesce(sum(total_requests), 0) AS n FROM usage_counters WHERE substr(user_id, 1, 2) IN (${SCENARIOS.map(() => "?").join(", ")})`,
      )
      .bind(...SCENARIOS.map((s) => `b${s.n}`))
      .first<number>("n")) ?? 0;
  /** Waits until D1 has counted every enqueued message, so that no run pays for an earlier run's backlog. */
  const drainTimes: number[] = [];
  const drain = async () => {
    const t0 = performance.now();
    // The minute cron's fold counts what the consumer took; here it runs as soon as the queue has delivered.
    while ((await call<number>(ROUTES.fold, "POST"), await counted()) < enqueued) {
      if (performance.now() - t0 >= DRAIN_TIMEOUT_SECONDS * 1000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    drainTimes.push(performance.now() - t0);
  };
  /** D1 rows written by the consumer for each scenario's (d) traffic in the measured rounds, and its page views. */
  const written = new Map<Scenario, { rows: number; views: number }>(SCENARIOS.map((s) => [s, { rows: 0, views: 0 }]));
  /** Runs one route under load and books what it enqueued, what it cost in D1, and what went wrong. */
  const run = async (phase: Phase, seconds: number, measured: boolean) => {
    const meterBefore = await call<D1Meter>(ROUTES.d1Writes);
    const result = await runLoad({ origin, path: phase.path, connections: CONNECTIONS, durationMs: seconds * 1000 });
    if (phase.enqueues) enqueued += result.ok;
    const failed = Object.entries(result.failedByStatus);
    if (failed.length)
      fail(`(${phase.key}) ${phase.label}: non-2xx answers: ${failed.map(([s, n]) => `${n} x ${s}`).join(", ")}`);
    if (result.errors) fail(`(${phase.key}) ${phase.label}: ${result.errors} requests failed: ${result.firstError}`);
    if (result.bytes !== result.answered * phase.bodyBytes) {
      fail(
        `(${phase.key}) ${phase.label}: answered ${result.bytes} body bytes, expected ${result.answered} x ${phase.bodyBytes}`,
      );
    }
    if (phase.enqueues) await drain();
    if (measured && phase.key === "d") {
      const booked = written.get(phase.scenario!)!;
      booked.rows += (await call<D1Meter>(ROUTES.d1Writes)).rowsWritten - meterBefore.rowsWritten;
      booked.views += result.ok;
    }
    return result;
  };

  console.log(
    `\nDynamic Content bench: ${runtimeVersions()}, ${CONNECTIONS} connections, ` +
      `${WARMUP_SECONDS} s warm-up, then ${ROUNDS} rounds of ${fmt(SECONDS / ROUNDS, 1)} s per route, interleaved\n`,
  );
  for (const phase of phases) await run(phase, WARMUP_SECONDS, false);
  const runs = new Map<Phase, LoadResult[]>(phases.map((p) => [p, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const phase of phases) runs.get(phase)!.push(await run(phase, SECONDS / ROUNDS, true));
    console.log(`  round ${round} done`);
  }

  const total = new Map(phases.map((p) => [p, combine(runs.get(p)!)]));
  const stats = new Map<Phase, Summary>(phases.map((p) => [p, summarize(total.get(p)!)]));
  console.log(
    `\n  ${pad("route", 52)} ${lpad("req/s", 7)} ${lpad("p50 ms", 7)} ${lpad("p99 ms", 7)} ${lpad("requests", 9)}`,
  );
  for (const p of phases) {
    const x = stats.get(p)!;
    console.log(
      `  ${pad(`(${p.key}) ${p.label}`, 52)} ${lpad(fmt(x.requestsPerSecond), 7)} ${lpad(fmt(x.p50Ms, 2), 7)} ` +
        `${lpad(fmt(x.p99Ms, 2), 7)} ${lpad(fmt(total.get(p)!.answered), 9)}`,
    );
  }
  const rate = (key: Phase["key"], s: Scenario | null) =>
    stats.get(phases.find((p) => p.key === key && p.scenario === s)!)!.requestsPerSecond;
  console.log(
    `\n  lookup and full path against their constant baselines, for information (Miniflare's simulators, not the product):`,
  );
  for (const s of SCENARIOS) {
    const ba = rate("b", s) / rate("a", null);
    const dc = rate("d", s) / rate("c", s);
    console.log(`  ${pad(`${s.name}:`, 28)} b/a = ${ba.toFixed(2)}  d/c = ${dc.toFixed(2)}`);
  }

  console.log(
    `\n  D1 rows the analytics consumer wrote per page view of (d), from D1's meta, for information (the round robin of ` +
      `(d) through Miniflare's queue; the product's figure is the operations part's):`,
  );
  let rows = 0;
  let views = 0;
  for (const s of SCENARIOS) {
    const w = written.get(s)!;
    rows += w.rows;
    views += w.views;
    console.log(
      `  ${pad(`${s.name}:`, 28)} ${fmt(w.rows / w.views, 2)}  (${fmt(w.rows)} rows for ${fmt(w.views)} views)`,
    );
  }
  console.log(`  ${pad("all four:", 28)} ${fmt(rows / views, 2)}`);

  const allViews = await counted();
  const sizeWithWindow = await d1Size();
  await call(`${ROUTES.purge}?now=${Date.now() + PAST_THE_RAW_WINDOW_MS}`, "POST");
  const sizeAfter = await d1Size();
  const perView = (sizeAfter - sizeBefore) / allViews;
  const urlRows = (await db.prepare("SELECT count(*) AS n FROM url_stats").first<number>("n")) ?? 0;
  console.log(
    `\n  D1 bytes per page view once the raw window has passed = ${perView.toFixed(1)}  ` +
      `(${fmt(allViews)} views on ${fmt(urlRows)} URLs; goal <= ${BYTES_GOAL}: ${verdict(perView <= BYTES_GOAL)})`,
  );
  console.log(`  D1 bytes per page view while in the raw window: ${fmt((sizeWithWindow - sizeAfter) / allViews, 1)}`);
  let archived = 0;
  let cursor: string | undefined;
  const archive = await mf.getR2Bucket("ANALYTICS_ARCHIVE");
  do {
    const listed = await archive.list({ cursor });
    archived += listed.objects.reduce((n, o) => n + o.size, 0);
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  console.log(`  R2 archive bytes per page view (gzipped NDJSON): ${fmt(archived / allViews, 1)}`);

  // The static asset as scripts/dev/build-snippet.mjs wrote it (npm run bench builds it first).
  const snippet = readFileSync(new URL("../../../web/public/snippet.js", import.meta.url));
  const raw = snippet.byteLength;
  const gzip = gzipSync(snippet, { level: 9 }).length;
  console.log(`\n  snippet.js: ${fmt(raw)} bytes raw, ${fmt(gzip)} bytes gzip (budget 1,202 gzip)`);

  const allThere = allViews === enqueued;
  console.log(
    `  every enqueued message was counted: ${allThere ? "yes" : "no"} (${fmt(allViews)} of ${fmt(enqueued)} in the ` +
      `usage counters; the queue drained within ${fmt(Math.max(...drainTimes) / 1000, 1)} s after each run)`,
  );
  if (!allThere)
    fail(`${fmt(enqueued - allViews)} analytics messages were not counted within ${DRAIN_TIMEOUT_SECONDS} s`);
  return seeded;
}

async function main() {
  const started = performance.now();
  const worker = await startBenchWorker();
  try {
    // The CPU measure's page: a mapping of 2 KB with its delivery entries, of the ratio part's 100,000 (or the one).
    const scenario = PLATFORM_ONLY ? SCENARIOS[0]! : SCENARIOS[2]!;
    const { page } = PLATFORM_ONLY ? await seed(worker, [scenario]) : await ratios(worker);
    const cpuPage = page(scenario, 0);
    printPlatformHeadlines(await platform(worker, fail, { u: cpuPage.u, url: decodeURIComponent(cpuPage.url) }));
    console.log(`\n  total time ${fmt((performance.now() - started) / 1000, 1)} s`);
  } finally {
    await worker.dispose();
  }
  if (problems.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
