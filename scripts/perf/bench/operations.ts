/**
 * @module The operations part of `npm run bench`: what the product spends at its bindings per page view, counted
 * call by call (meter.mts wraps every binding of the Env the real code gets), on two kinds of simulated traffic at
 * 100 million views a month, and what that costs at Cloudflare's list prices (prices.ts).
 *
 * - Traffic (A): one customer, Zipf(1) over 100,000 mapped URLs. Traffic (B), the platform: 1,000 customers whose
 *   shares are Zipf(1), each Zipf(1) over its 100 URLs, every other one on a plan with a limit (so their views pay
 *   the per-visitor budget: 45% of the views), all on the one analytics queue (traffic.ts, seeded). Both
 *   start as a steady day of production would: every customer, URL and mapping has the counter rows earlier days
 *   left (seed.ts `countersOfEarlierDays`), so a URL's first view ever is not counted as every URL's first view.
 * - The volume run (simulation.mts): BENCH_SIM_MINUTES (60) simulated minutes of each, on a virtual clock, through
 *   the real consumer in the batches Cloudflare Queues would make (queue-model.ts), the minute cron every minute,
 *   the daily cron at its time, and the raw window's purge a retention later; the messages come from ONE function,
 *   `queueMessagesFor` (queue-messages.mts). Then probes of BENCH_PROBE_BATCHES (300) batches of traffic (B) at 1
 *   and 10,000 million views a month, whose batches are smaller and larger.
 * - The hot-path sample: the real app's /api/content over HTTP, BENCH_HOT_VIEWS (600) views of each kind on the
 *   virtual clock at the simulated rate (one warm isolate takes all the traffic) and BENCH_COLD_VIEWS (100) more than
 *   5 s apart (every view a memo miss, as in production, where the views spread over many isolates).
 * - CPU per /api/content (cpu.mts): BENCH_CPU_ROUNDS (5) x BENCH_CPU_CALLS (10,000) in the isolate with stand-ins,
 *   and the same on a URL with 20 audiences (docs/audiences.md), with their ratio (goal <= 1.5x).
 * - The projection to 1, 100 and 10,000 million views a month, computed from the measured per-operation counts, and
 *   its cost, item by item.
 * Errors (views lost or counted twice, wrong answers) are reported through `fail`; missed goals never are.
 */
import { ANALYTICS_QUEUE_NAME } from "../../../worker/messages/analytics";
import { fmt, lpad, numberSetting as num, pad, verdict, type BenchWorker } from "./harness";
import { monthlyCost, PAID_PLAN_PER_MONTH, PRICES, PRICES_CHECKED, type PricedItem } from "./prices";
import {
  COUNT_KEYS,
  HEADERS,
  html,
  ROUTES,
  sumCounts,
  type Counts,
  type CpuReport,
  type SimulationProgress,
  type SimulationReport,
  type SimulationSpec,
  type TrafficKind,
} from "./protocol";
import { seed, type Scenario } from "./seed";
import { MONTH_SECONDS, Traffic, viewsPerSecond, type SimulatedView } from "./traffic";

const SIM_MINUTES = num("BENCH_SIM_MINUTES", 60);
const PROBE_BATCHES = Math.round(num("BENCH_PROBE_BATCHES", 300));
const HOT_VIEWS = Math.round(num("BENCH_HOT_VIEWS", 600));
const COLD_VIEWS = Math.round(num("BENCH_COLD_VIEWS", 100));
const CPU_CALLS = Math.round(num("BENCH_CPU_CALLS", 10_000));
const CPU_ROUNDS = Math.round(num("BENCH_CPU_ROUNDS", 5));
/** Warm isolates the simulated views spread over, each gathering its own into messages (queue-messages.mts). */
const ISOLATES = Math.round(num("BENCH_ISOLATES", 300));
/** Views of the hot-path sample before the counted ones, so that the warm isolate's memo is warm. */
const WARM_UP_VIEWS = 200;
/** The simulated rate, and the rates projected to. */
const RATE = 100e6;
const PROJECTED = [1e6, 100e6, 10_000e6] as const;
const COST_RATE = 10_000e6;
const DAYS_PER_MONTH = MONTH_SECONDS / 86_400;
const DAY_MS = 86_400_000;

const GOALS = { rowsWritten: 0.2, queueOps: 0.5, workerRequests: 1, cost: 2, audiencesCpuRatio: 1.5 };

/** Small HTML: the consumer never reads it, and seeding 200,000 mappings stays quick. */
const HTML_BYTES = 256;
const SCENARIOS = {
  A: { n: 5, name: "(A) one customer, Zipf(1) over 100,000 URLs", customers: 1, mappingsEach: 100_000 },
  B: {
    n: 6,
    name: "(B) 1,000 customers (Zipf(1) shares, every other one's plan with a limit), Zipf(1) over 100 URLs each",
    customers: 1_000,
    mappingsEach: 100,
    limitedEvery: 2,
  },
} satisfies Record<string, Scenario>;
type KindKey = keyof typeof SCENARIOS;

export interface Headlines {
  rowsWritten: number;
  /** D1 rows written per view of traffic (B) when every customer's counters are read every so many hours. */
  rowsWrittenRead: Record<ReadEvery, number>;
  queueOps: number;
  workerRequests: number;
  /** Queue batches and cron runs per view (Worker invocations too). */
  backgroundRequests: number;
  cost: number;
  cpu: CpuReport;
}

/** Per view: each count divided by `views`. */
const per = (counts: Counts, views: number): Counts =>
  Object.fromEntries(COUNT_KEYS.map((k) => [k, views ? counts[k] / views : 0])) as Counts;
const scaled = (counts: Counts, by: number): Counts =>
  Object.fromEntries(COUNT_KEYS.map((k) => [k, counts[k] * by])) as Counts;
/**
 * The hot path's counts without its queue sends and relay requests: the modelled queue books every message's
 * operations and every bundle handed to the relay.
 */
const withoutQueue = (counts: Counts): Counts => ({
  ...counts,
  queueMessages: 0,
  queueBytes: 0,
  queueOps: 0,
  doRequests: 0,
});

/** A figure per view: more digits the smaller it is. */
function perView(n: number): string {
  if (n === 0) return "0";
  if (Math.abs(n) >= 100) return fmt(n, 0);
  if (Math.abs(n) >= 0.1) return n.toFixed(2);
  return n.toPrecision(2);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const dollars = (n: number) => `$${n >= 1000 ? fmt(n, 0) : n.toFixed(n > 0 && n < 0.1 ? 3 : 2)}`;

/** The daily cron's time (minutes after 00:00 UTC): the one cron of wrangler.toml of the form "M H * * *". */
function dailyCronMinute(crons: string[]): number {
  const daily = crons.map((c) => /^(\d+) (\d+) \* \* \*$/.exec(c.trim())).filter((m) => m !== null);
  if (daily.length !== 1) throw new Error(`expected one daily cron ("M H * * *") in wrangler.toml, found ${crons}`);
  return Number(daily[0]![2]) * 60 + Number(daily[0]![1]);
}

const utcMidnight = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

interface HotSample {
  warmUp: Counts;
  warm: Counts;
  warmViews: number;
  cold: Counts;
  coldViews: number;
}

interface KindResult {
  key: KindKey;
  kind: TrafficKind;
  main: SimulationReport;
  hot: HotSample;
  /**
   * Pages (customer and URL) the reducers settle in a day of the kind's traffic at the simulated rate, by the hours
   * between reads of every customer's counters (`pagesSettled`); 24: nobody reads, the daily settle alone.
   */
  pagesSettled: Record<ReadEvery, number>;
}

/** Hours between reads of every customer's counters whose settles the output prices: 24 is nobody reading. */
const READ_EVERY_HOURS = [24, 6, 1] as const;
type ReadEvery = (typeof READ_EVERY_HOURS)[number];

/** Everything of a simulation's stretch but the reducers' settle at its end, added up. */
const simulated = (r: SimulationReport) =>
  sumCounts(r.counts.consumer, r.counts.minuteCron, r.counts.laterPurge, r.counts.queue);

/**
 * How many pages the reducers settle in a day of the kind's traffic at `RATE` when every customer's counters are read
 * every so many hours: each read settles the distinct pages since the last (one sum per page and day, a page's
 * mapping and crawler flag fixed in this traffic); 24 hours is the day's settle alone. Counted from the traffic model
 * alone, a day of it (3.3 million views) being more than the volume run can simulate here.
 */
function pagesSettled(kind: TrafficKind, seed: number): Record<ReadEvery, number> {
  const traffic = new Traffic(kind, RATE, 0, seed);
  const settled = Object.fromEntries(READ_EVERY_HOURS.map((hours) => [hours, 0])) as Record<ReadEvery, number>;
  const windows = READ_EVERY_HOURS.map((hours) => ({ hours, window: 0, pages: new Set<number>() }));
  for (let view = traffic.next(); view.timestamp < DAY_MS; view = traffic.next()) {
    for (const w of windows) {
      const window = Math.floor(view.timestamp / (w.hours * 3_600_000));
      if (window !== w.window) {
        settled[w.hours] += w.pages.size;
        w.pages.clear();
        w.window = window;
      }
      w.pages.add(view.customer * kind.urlsEach + view.item);
    }
  }
  for (const w of windows) settled[w.hours] += w.pages.size;
  return settled;
}

/**
 * The reducers' settle, per view at the simulated rate, as they settle once a day when nobody reads the counters:
 * what the volume run's settle wrote per page it held (its stretch starts at midnight, so each page pays its day's
 * first write, as in a day's settle), times the pages of a day, over a day's views. Every read of a customer's
 * counters settles that customer in between, at the cost of their pages since the last settle.
 */
const settleOfADay = (result: KindResult, readEvery: ReadEvery = 24): Counts =>
  scaled(
    per(result.main.counts.settle, result.main.pagesSeen),
    result.pagesSettled[readEvery] / (RATE / DAYS_PER_MONTH),
  );

/**
 * Per view of a kind at the simulated rate: the volume run's stretch (consumer, minute cron, later purge, queue),
 * the reducers' settle of a day (`settleOfADay`) and the daily cron spread over a day's views, and the hot path's
 * views (memo cold unless `warm`).
 */
function perViewOf(result: KindResult, warm = false, readEvery: ReadEvery = 24): Counts {
  const { main, hot } = result;
  return sumCounts(
    per(simulated(main), main.views),
    settleOfADay(result, readEvery),
    per(main.counts.dailyCron, RATE / DAYS_PER_MONTH),
    withoutQueue(warm ? per(hot.warm, hot.warmViews) : per(hot.cold, hot.coldViews)),
  );
}

export async function operations(
  worker: BenchWorker,
  fail: (message: string) => void,
  /** A mapped page of 2 KB whose delivery entries are in the store: the CPU measure's page. */
  cpuPage: { u: string; url: string },
): Promise<Headlines> {
  const { db, call } = worker;
  const consumer = worker.config.queueConsumers[ANALYTICS_QUEUE_NAME];
  if (!consumer?.maxBatchSize || !consumer.maxBatchTimeout) throw new Error(`no consumer of ${ANALYTICS_QUEUE_NAME}`);
  const settings = {
    maxBatchSize: consumer.maxBatchSize,
    maxBatchTimeoutMs: consumer.maxBatchTimeout * 1000,
    dailyCronMinute: dailyCronMinute(worker.config.crons),
    isolates: ISOLATES,
  };

  const seconds = performance.now();
  const scenarios = Object.values(SCENARIOS).map((s) => ({ ...s, htmlBytes: HTML_BYTES }));
  const seeded = await seed(worker, scenarios, { deliveryEntries: false, countersOfEarlierDays: true });
  const kinds = {} as Record<KindKey, TrafficKind>;
  for (const key of Object.keys(SCENARIOS) as KindKey[]) {
    const s = SCENARIOS[key];
    const first = seeded.mappingIdOf(s, 1, 1);
    const last = first + s.customers * s.mappingsEach - 1;
    if (seeded.mappingIdOf(s, s.customers, s.mappingsEach) !== last)
      throw new Error(`${s.name}: mapping ids not in order`);
    kinds[key] = {
      key,
      name: s.name,
      scenario: s.n,
      customers: s.customers,
      urlsEach: s.mappingsEach,
      firstMappingId: first,
    };
  }
  const rate = viewsPerSecond(RATE);
  console.log(
    `\nOperations per page view: every billed binding call counted (scripts/perf/bench/meter.mts) on simulated ` +
      `traffic at ${fmt(RATE / 1e6)} million views a month (${rate.toFixed(1)} views/s), on a virtual clock`,
  );
  console.log(
    `  seeded ${fmt(scenarios.reduce((n, s) => n + s.customers, 0))} customers and ${fmt(
      scenarios.reduce((n, s) => n + s.customers * s.mappingsEach, 0),
    )} mappings of ${HTML_BYTES} bytes (D1 only, with the counter rows of earlier days) in ${fmt((performance.now() - seconds) / 1000, 1)} s; queue batches ` +
      `of at most ${settings.maxBatchSize} messages or ${consumer.maxBatchTimeout} s (wrangler.toml); the views ` +
      `spread over ${fmt(ISOLATES)} warm isolates (BENCH_ISOLATES), each gathering its own into messages`,
  );

  const counted = async (kind: TrafficKind) => {
    const prefix = `b${kind.scenario}%`;
    const lastId = kind.firstMappingId + kind.customers * kind.urlsEach - 1;
    const row = await db
      .prepare(
        `SELECT (SELECT coalesce(sum(total_requests), 0) FROM usage_counters WHERE user_id LIKE ?1) AS customers,
           (SELECT coalesce(sum(hits), 0) FROM url_stats WHERE user_id LIKE ?1) AS urls,
           (SELECT coalesce(sum(requests), 0) FROM mapping_stats WHERE mapping_id BETWEEN ?2 AND ?3)
             + (SELECT coalesce(sum(mapping_requests), 0) FROM url_stats
               WHERE user_id LIKE ?1 AND mapping_id BETWEEN ?2 AND ?3) AS mappings`,
      )
      .bind(prefix, kind.firstMappingId, lastId)
      .first<{ customers: number; urls: number; mappings: number }>();
    return row!;
  };
  /** Every view sent so far is counted once by customer, URL and mapping; else an error. */
  const checkCounted = async (kind: TrafficKind, expected: number, what: string) => {
    const c = await counted(kind);
    const ok = c.customers === expected && c.urls === expected && c.mappings === expected;
    if (!ok) {
      fail(
        `${kind.name}, ${what}: ${fmt(expected)} views sent, counted ${fmt(c.customers)} by customer, ` +
          `${fmt(c.urls)} by URL, ${fmt(c.mappings)} by mapping (lost or counted twice)`,
      );
    }
    return ok;
  };

  const simulate = async (
    spec: Omit<SimulationSpec, keyof typeof settings>,
    run: (advance: (body: { until?: number; batches?: number }) => Promise<SimulationProgress>) => Promise<void>,
  ) => {
    await call(ROUTES.simStart, "POST", { ...spec, ...settings } satisfies SimulationSpec);
    await run((body) => call<SimulationProgress>(ROUTES.simAdvance, "POST", body));
    const report = await call<SimulationReport>(ROUTES.simFinish, "POST");
    if (report.lostMessages) fail(`${spec.label}: ${fmt(report.lostMessages)} messages lost after retries`);
    if (report.retriedBatches)
      console.log(`  warning: ${spec.label}: the consumer retried ${report.retriedBatches} batches`);
    return report;
  };

  // The volume runs: each kind on a day of its own (yesterday and today, UTC), from midnight.
  const today = utcMidnight(Date.now());
  const mains = {} as Record<KindKey, SimulationReport>;
  for (const [i, key] of (["A", "B"] as const).entries()) {
    const kind = kinds[key];
    const startMs = today - (1 - i) * DAY_MS;
    const started = performance.now();
    mains[key] = await simulate(
      { label: `traffic ${kind.name}`, kind, viewsPerMonth: RATE, startMs, seed: 1 + i, dayBoundary: true },
      async (advance) => {
        for (let minute = 1; minute <= SIM_MINUTES; minute++) await advance({ until: startMs + minute * 60_000 });
      },
    );
    await checkCounted(kind, mains[key].views, "volume run");
    console.log(
      `  volume run ${kind.name}: ${fmt(SIM_MINUTES)} simulated minutes in ${fmt((performance.now() - started) / 1000, 1)} s`,
    );
  }

  // Probes of traffic (B) at the other projected rates: the consumer's batches are smaller or larger there.
  const probes = new Map<number, SimulationReport>([[RATE, mains.B]]);
  let probeStart = today + 4 * 3_600_000;
  for (const viewsPerMonth of PROJECTED.filter((r) => r !== RATE)) {
    const label = `probe of traffic (B) at ${fmt(viewsPerMonth / 1e6)} million views a month`;
    probes.set(
      viewsPerMonth,
      await simulate(
        { label, kind: kinds.B, viewsPerMonth, startMs: probeStart, seed: 10 + probes.size, dayBoundary: false },
        async (advance) => void (await advance({ batches: PROBE_BATCHES })),
      ),
    );
    probeStart += 3_600_000;
  }
  const bViews = [...probes.values()].reduce((n, r) => n + r.views, 0);
  await checkCounted(kinds.B, bViews, "volume run and probes");

  // The hot-path samples, through the real app over HTTP.
  const hot = {} as Record<KindKey, HotSample>;
  for (const [i, key] of (["A", "B"] as const).entries()) {
    hot[key] = await hotPathSample(worker, kinds[key], SCENARIOS[key], 20 + i, fail);
  }
  // Every view of a sample was answered 200 (or `fail` said so), and each is one page view, whatever carried it.
  const sent = (h: HotSample) => WARM_UP_VIEWS + h.warmViews + h.coldViews;
  const expected = { A: mains.A.views + sent(hot.A), B: bViews + sent(hot.B) };
  // The samples' messages went through Miniflare's queue to the consumer (the last after the isolate's window):
  // wait until they are taken, and fold them as the minute cron would.
  const waitStarted = performance.now();
  for (const key of ["A", "B"] as const) {
    while (
      (await call<number>(ROUTES.fold, "POST"), await counted(kinds[key])).customers < expected[key] &&
      performance.now() - waitStarted < 60_000
    ) {
      await new Promise((r) => setTimeout(r, 200));
    }
    await checkCounted(kinds[key], expected[key], "volume run, probes and hot-path sample");
  }

  // CPU per /api/content, in the isolate.
  const cpu = await call<CpuReport>(
    `${ROUTES.cpu}?u=${cpuPage.u}&url=${encodeURIComponent(cpuPage.url)}&calls=${CPU_CALLS}&rounds=${CPU_ROUNDS}`,
    "POST",
  );
  if (cpu.perCall.okAnswers !== 1 || cpu.perCall.messages !== 1) {
    fail(
      `CPU measure: /api/content answered 200 for ${cpu.perCall.okAnswers} and sent ${cpu.perCall.messages} messages per call, expected 1 and 1`,
    );
  }

  const results = (["A", "B"] as const).map((key, i) => ({
    key,
    kind: kinds[key],
    main: mains[key],
    hot: hot[key],
    pagesSettled: pagesSettled(kinds[key], 1 + i),
  }));
  for (const result of results) printKind(result);
  const cpuMsPerView = median(cpu.contentMemoMiss) / 1000;
  const projection = printProjection(
    results.find((r) => r.key === "B")!,
    probes,
    cpuMsPerView,
  );
  printCpu(cpu);

  const b = results.find((r) => r.key === "B")!;
  const bPerView = perViewOf(b);
  return {
    rowsWritten: bPerView.d1RowsWritten,
    rowsWrittenRead: Object.fromEntries(
      READ_EVERY_HOURS.map((hours) => [hours, perViewOf(b, false, hours).d1RowsWritten]),
    ) as Record<ReadEvery, number>,
    queueOps: bPerView.queueOps,
    workerRequests: per(b.hot.cold, b.hot.coldViews).fetch,
    backgroundRequests: bPerView.queue + bPerView.scheduled,
    cost: projection.get(COST_RATE)!,
    cpu,
  };
}

/** The hot-path sample of a kind: warm (at the simulated rate, one isolate) and cold (every view a memo miss). */
async function hotPathSample(
  { call, origin }: BenchWorker,
  kind: TrafficKind,
  scenario: Scenario,
  seedNumber: number,
  fail: (message: string) => void,
): Promise<HotSample> {
  // An hour on, so that nothing the store's writes left in the memo is still fresh.
  const traffic = new Traffic(kind, RATE, Date.now() + 3_600_000, seedNumber);
  const views = Array.from({ length: WARM_UP_VIEWS + HOT_VIEWS }, () => traffic.next());
  const entries = [
    ...new Map(views.map((v) => [`${v.userId} ${v.normalizedUrl}`, { u: v.userId, url: v.normalizedUrl }])).values(),
  ];
  for (let i = 0; i < entries.length; i += 500) await call(ROUTES.store, "POST", entries.slice(i, i + 500));

  const source = (part: string) => `hot ${kind.key} ${part}`;
  const request = async (view: SimulatedView, meter: string, clock: number) => {
    const res = await fetch(`${origin}${ROUTES.content}?u=${view.userId}&url=${encodeURIComponent(view.url)}`, {
      headers: {
        "User-Agent": view.userAgent,
        Referer: view.referer,
        "CF-Connecting-IP": view.visitor,
        [HEADERS.meter]: meter,
        [HEADERS.clock]: String(clock),
      },
    });
    const body = await res.text();
    const expected = html((view.customer - 1) * scenario.mappingsEach + view.item, HTML_BYTES);
    if (res.status !== 200 || body !== expected) {
      fail(`hot-path sample ${kind.name}: ${view.url} answered ${res.status} with other HTML than its mapping's`);
    }
  };
  for (const [i, view] of views.entries()) {
    await request(view, source(i < WARM_UP_VIEWS ? "warm-up" : "warm"), view.timestamp);
  }
  let clock = views.at(-1)!.timestamp;
  for (const view of views.slice(0, COLD_VIEWS)) await request(view, source("cold"), (clock += 10_000));
  const meter = (part: string) => call<Counts>(`${ROUTES.meter}?source=${encodeURIComponent(source(part))}`);
  return {
    warmUp: await meter("warm-up"),
    warm: await meter("warm"),
    warmViews: HOT_VIEWS,
    cold: await meter("cold"),
    coldViews: COLD_VIEWS,
  };
}

function printKind(result: KindResult) {
  const { kind, main, hot } = result;
  const v = main.views;
  const parts = {
    consumer: per(main.counts.consumer, v),
    minute: per(main.counts.minuteCron, v),
    settle: settleOfADay(result),
    daily: per(main.counts.dailyCron, RATE / DAYS_PER_MONTH),
    purge: per(main.counts.laterPurge, v),
    queue: per(main.counts.queue, v),
  };
  const warm = per(hot.warm, hot.warmViews);
  const cold = per(hot.cold, hot.coldViews);
  const all = perViewOf(result);
  const dailyAt = main.dailyCronAt === null ? "none" : new Date(main.dailyCronAt).toISOString().slice(11, 16);
  console.log(`\n  traffic ${kind.name}, ${fmt(SIM_MINUTES)} simulated minutes (measured):`);
  console.log(
    `    views ${fmt(v)}, messages ${fmt(main.messages)} (${(v / main.messages).toFixed(2)} views each), batches ${fmt(main.batches)} (${(main.messages / main.batches).toFixed(1)} ` +
      `messages each), minute crons ${main.minuteCrons}, daily cron ${main.dailyCrons} (at ${dailyAt} UTC; per view: its ` +
      `count over a day's ${fmt(RATE / DAYS_PER_MONTH)} views)`,
  );
  const settled = main.counts.settle.d1RowsWritten;
  console.log(
    `    the reducers' settle at the stretch's end wrote ${fmt(settled)} D1 rows for its ${fmt(main.pagesSeen)} pages ` +
      `(${perView(settled / main.pagesSeen)} a page; ${perView(settled / v)} per view of the stretch); a day at this ` +
      `rate sees ${fmt(result.pagesSettled[24])} pages (traffic model): "settle of a day" below is that, computed, for a ` +
      `day in which nobody reads these customers' counters (each read settles that customer's pages of the day so far)`,
  );
  for (const hours of READ_EVERY_HOURS.filter((h) => h !== 24)) {
    console.log(
      `    if every customer's counters were read every ${hours} h: ${fmt(result.pagesSettled[hours])} pages settled ` +
        `a day, ${perView(perViewOf(result, false, hours).d1RowsWritten)} D1 rows written per view (computed at the ` +
        `stretch's ${perView(settled / main.pagesSeen)} rows a page, a page's first settle of its day; a later one the ` +
        `same day writes fewer)`,
    );
  }
  const line = (label: string, value: string, detail = "") =>
    console.log(`    ${pad(label, 34)} ${lpad(value, 8)}  ${detail}`);
  const split = (key: keyof Counts) =>
    `(consumer ${perView(parts.consumer[key])}, minute cron ${perView(parts.minute[key])}, reducers' settle of a ` +
    `day ${perView(parts.settle[key])}, daily cron ${perView(parts.daily[key])}, raw window's purge a week later ` +
    `${perView(parts.purge[key])})`;
  line("D1 rows written per view", perView(all.d1RowsWritten), split("d1RowsWritten"));
  line("D1 rows read per view", perView(all.d1RowsRead), split("d1RowsRead"));
  line(
    "D1 queries per batch",
    perView(main.counts.consumer.d1Calls / main.batches),
    `(round trips; ${perView(main.counts.consumer.d1Statements / main.batches)} statements, ` +
      `${fmt(main.counts.consumer.d1RowsRead / main.batches)} rows read per batch)`,
  );
  line(
    "queue operations per view",
    perView(all.queueOps),
    `(${perView(parts.queue.queueOps)} for the analytics messages: write, read, delete per 64 KB, ` +
      `${fmt(main.counts.queue.queueBytes / main.messages)} bytes each; ${perView(all.queueOps - parts.queue.queueOps)} sent by the consumer and crons)`,
  );
  line(
    "Worker requests per view",
    perView(all.fetch + all.queue + all.scheduled),
    `(/api/content ${perView(cold.fetch)}, queue batches ${perView(all.queue)}, cron runs ${perView(all.scheduled)})`,
  );
  line(
    "KV reads per view",
    perView(all.kvReads),
    `(hot path memo cold ${perView(cold.kvReads)}, warm isolate at this rate ${perView(warm.kvReads)}; consumer and ` +
      `crons ${perView(all.kvReads - cold.kvReads)}); lists ${perView(all.kvLists)}, writes ${perView(all.kvWrites)}, ` +
      `deletes ${perView(all.kvDeletes)}`,
  );
  line(
    "Rate Limiting calls per view",
    perView(all.rateLimitCalls),
    `(hot path cold ${perView(cold.rateLimitCalls)}, warm ${perView(warm.rateLimitCalls)})`,
  );
  line(
    "R2 operations per view",
    perView(all.r2ClassA + all.r2ClassB),
    `(class A ${perView(all.r2ClassA)}, class B ${perView(all.r2ClassB)}, free ${perView(all.r2Free)})`,
  );
  line(
    "Durable Objects per view",
    perView(all.doRequests),
    `(requests; storage rows read ${perView(all.doRowsRead)}, written ${perView(all.doRowsWritten)}; the ` +
      `reducers' calls ${perView(all.doActiveMs)} ms)`,
  );
  line("Analytics Engine points per view", perView(all.aePoints));
  line(
    "hot path per view, warm / cold",
    "",
    `Worker requests ${perView(warm.fetch)} / ${perView(cold.fetch)}, KV reads ${perView(warm.kvReads)} / ${perView(cold.kvReads)}, ` +
      `Rate Limiting ${perView(warm.rateLimitCalls)} / ${perView(cold.rateLimitCalls)}, queue messages ` +
      `${perView(warm.queueMessages)} / ${perView(cold.queueMessages)}, D1 queries ${perView(warm.d1Calls)} / ${perView(cold.d1Calls)} ` +
      `(${fmt(hot.warmViews)} and ${fmt(hot.coldViews)} views of /api/content)`,
  );
  console.log(
    `    the consumer took ${main.consumerMsPerBatch.toFixed(1)} ms per batch in Miniflare (for information)`,
  );
}

/**
 * Per month at a rate, for traffic (B): measured per-view and per-run counts, scaled. The minute cron's work is
 * mostly the fold of that minute's views, so it is taken per view at the rate, from the run at that rate. The later
 * purge deletes what the consumer wrote (the ledger's rows), so it is taken per view of the volume run and scaled by
 * the consumer's rows per view at the rate against the volume run's.
 */
function monthOf(result: KindResult, probe: SimulationReport, viewsPerMonth: number): Counts {
  const { main, hot } = result;
  const consumerRows = (r: SimulationReport) => r.counts.consumer.d1RowsWritten / r.views;
  // At the simulated rate the reducers settle once a day; a probe's settle at its end is booked to its own views
  // (at 10,000 million a month they settle every few minutes anyway: their memory's limit).
  const settle = probe === main ? settleOfADay(result) : per(probe.counts.settle, probe.views);
  return sumCounts(
    scaled(
      per(sumCounts(probe.counts.consumer, probe.counts.queue, probe.counts.minuteCron), probe.views),
      viewsPerMonth,
    ),
    scaled(settle, viewsPerMonth),
    scaled(per(main.counts.laterPurge, main.views), (viewsPerMonth * consumerRows(probe)) / consumerRows(main)),
    scaled(main.counts.dailyCron, DAYS_PER_MONTH),
    scaled(withoutQueue(per(hot.cold, hot.coldViews)), viewsPerMonth),
  );
}

/**
 * GB-s a Durable Object is billed for a second active (128 MB). The relays are booked as active all month (an upper
 * bound: each holds a bundle only while its callers wait, behind a timer that keeps it from hibernating); the
 * reducers for the time their calls took (`doActiveMs`, wall-clock in Miniflare): between calls they hold no timer
 * or connection, so they may hibernate, which the platform does not bill.
 */
const DO_GB_PER_SECOND = 0.125;

function usageOf(month: Counts, cpuMs: number, relays: number): Partial<Record<PricedItem, number>> {
  return {
    workerRequests: month.fetch + month.queue + month.scheduled,
    workerCpuMs: cpuMs,
    kvReads: month.kvReads,
    kvWrites: month.kvWrites,
    kvDeletes: month.kvDeletes,
    kvLists: month.kvLists,
    queueOps: month.queueOps,
    d1RowsRead: month.d1RowsRead,
    d1RowsWritten: month.d1RowsWritten,
    doRequests: month.doRequests,
    doGbSeconds:
      (month.doRequests > 0 ? relays * MONTH_SECONDS * DO_GB_PER_SECOND : 0) +
      (month.doActiveMs / 1000) * DO_GB_PER_SECOND,
    doRowsRead: month.doRowsRead,
    doRowsWritten: month.doRowsWritten,
    aePoints: month.aePoints,
    r2ClassA: month.r2ClassA,
    r2ClassB: month.r2ClassB,
  };
}

/** Prints the projection of traffic (B) and the cost at COST_RATE; answers $ per million views by rate. */
function printProjection(
  b: KindResult,
  probes: Map<number, SimulationReport>,
  cpuMsPerView: number,
): Map<number, number> {
  const perMillion = new Map<number, number>();
  const months = PROJECTED.map((rate) => ({
    rate,
    probe: probes.get(rate)!,
    month: monthOf(b, probes.get(rate)!, rate),
  }));
  console.log(
    `\n  projection of traffic ${b.kind.name} (computed from measured per-operation counts: the consumer and the ` +
      `queue and the minute cron (its fold) per view as measured at each rate, by the volume run at ` +
      `${fmt(RATE / 1e6)} million and by probes of ${fmt(PROBE_BATCHES)} batches at the others; the daily cron per ` +
      `run x ${DAYS_PER_MONTH}, the purge per view in step with the consumer's rows, the hot path per view with the memo cold):`,
  );
  const head = (label: string) =>
    console.log(`    ${pad(label, 34)} ${months.map((m) => lpad(`${fmt(m.rate / 1e6)} M/month`, 16)).join("")}`);
  const row = (label: string, f: (m: (typeof months)[number]) => string) =>
    console.log(`    ${pad(label, 34)} ${months.map((m) => lpad(f(m), 16)).join("")}`);
  head("views a month");
  row("views per message (measured)", (m) => (m.probe.views / m.probe.messages).toFixed(2));
  row("messages per batch (measured)", (m) => (m.probe.messages / m.probe.batches).toFixed(1));
  row("D1 rows written per view", (m) => perView(m.month.d1RowsWritten / m.rate));
  row("D1 rows read per view", (m) => perView(m.month.d1RowsRead / m.rate));
  row("queue operations per view", (m) => perView(m.month.queueOps / m.rate));
  row("relay requests per view", (m) => perView(m.month.doRequests / m.rate));
  row("Worker requests per view", (m) => perView((m.month.fetch + m.month.queue + m.month.scheduled) / m.rate));
  row("KV reads per view", (m) => perView(m.month.kvReads / m.rate));
  row("R2 class A per view", (m) => perView(m.month.r2ClassA / m.rate));
  for (const m of months) {
    const { total } = monthlyCost(usageOf(m.month, cpuMsPerView * m.rate, m.probe.relayShards));
    perMillion.set(m.rate, total / (m.rate / 1e6));
  }
  row("$ a month", (m) => dollars(perMillion.get(m.rate)! * (m.rate / 1e6)));
  row("$ per million views", (m) => dollars(perMillion.get(m.rate)!));

  const at = months.find((m) => m.rate === COST_RATE)!;
  const cost = monthlyCost(usageOf(at.month, cpuMsPerView * COST_RATE, at.probe.relayShards));
  const millions = COST_RATE / 1e6;
  console.log(
    `\n  cost of traffic (${b.kind.key}) at ${fmt(millions)} million views a month, by item (Cloudflare's list ` +
      `prices checked ${PRICES_CHECKED}, scripts/perf/bench/prices.ts; above the amounts the $${PAID_PLAN_PER_MONTH} plan includes):`,
  );
  for (const item of cost.items) {
    if (item.units === 0 && item.dollars === 0) continue;
    const price = PRICES[item.item];
    console.log(
      `    ${pad(item.label, 38)} ${lpad(fmt(item.units / 1e6, 1), 12)} M  x ${lpad(`$${price.perMillion.toFixed(price.perMillion < 0.01 ? 3 : 2)}/M`, 8)}  ${lpad(dollars(item.dollars), 10)} ` +
        `${lpad(dollars(item.dollars / millions), 8)} per M views`,
    );
  }
  console.log(
    `    ${pad("Rate Limiting calls", 38)} ${lpad(fmt(at.month.rateLimitCalls / 1e6, 1), 12)} M  no separate list price known: not in the total`,
  );
  console.log(
    `    ${pad("not counted", 38)} the consumer's and crons' CPU, D1, KV and R2 storage (the relay's ` +
      `duration is counted as every shard active all month, an upper bound)`,
  );
  console.log(
    `    ${pad("total, with the plan's minimum", 38)} ${lpad("", 14)}            ${lpad(dollars(cost.total), 10)} ` +
      `${lpad(dollars(cost.total / millions), 8)} per M views`,
  );
  return perMillion;
}

function printCpu(cpu: CpuReport) {
  const us = (values: number[]) =>
    `${median(values).toFixed(1)} µs (rounds: ${values.map((x) => x.toFixed(1)).join(", ")})`;
  console.log(
    `\n  CPU per request in the isolate, median of ${cpu.rounds} x ${fmt(cpu.calls)} calls (performance.now(); KV, Rate ` +
      `Limiting and the queue as in-memory stand-ins; local only: production freezes the clock):`,
  );
  console.log(`    constant 1 KB Response           ${us(cpu.constant)}`);
  console.log(`    /api/content, memo warm          ${us(cpu.contentMemoHit)}`);
  console.log(`    /api/content, memo cold          ${us(cpu.contentMemoMiss)}`);
  console.log(`    /api/content, memo cold, 20 audiences on the URL ${us(cpu.contentAudiencesMemoMiss)}`);
  const cpuMs = median(cpu.contentMemoMiss) * 1000;
  console.log(
    `    per million views (memo cold): ${fmt(cpuMs / 1000, 0)} CPU-seconds, ${dollars((cpuMs / 1e6) * PRICES.workerCpuMs.perMillion)} ` +
      `at $${PRICES.workerCpuMs.perMillion} per million CPU-ms; per call the stand-ins saw ${perView(cpu.perCall.kvReads)} KV reads, ` +
      `${perView(cpu.perCall.rateLimitCalls)} Rate Limiting calls, ${perView(cpu.perCall.messages)} messages`,
  );
}

/** The five headline figures, each with its goal. */
export function printHeadlines(h: Headlines) {
  console.log(`\n  The product's operations per page view, traffic (B) (the platform model):`);
  console.log(
    `  D1 rows written per page view = ${h.rowsWritten.toFixed(2)}  (goal <= ${GOALS.rowsWritten} at ` +
      `${fmt(RATE / 1e6)} million views a month: ${verdict(h.rowsWritten <= GOALS.rowsWritten)}; the reducers' ` +
      `settle computed for a day in which nobody reads the counters, the rest measured; if every customer read ` +
      `theirs every 6 h: ${h.rowsWrittenRead[6].toFixed(2)}, every hour: ${h.rowsWrittenRead[1].toFixed(2)})`,
  );
  console.log(
    `  queue operations per page view = ${h.queueOps.toFixed(2)}  (goal <= ${GOALS.queueOps}: ${verdict(h.queueOps <= GOALS.queueOps)})`,
  );
  console.log(
    `  Worker requests per page view = ${h.workerRequests.toFixed(2)}  (the /api/content request; queue batches and ` +
      `cron runs add ${perView(h.backgroundRequests)}, in the cost; goal = ${GOALS.workerRequests}: ` +
      `${verdict(Math.abs(h.workerRequests - GOALS.workerRequests) < 1e-9)})`,
  );
  console.log(
    `  cost per million page views = $${h.cost.toFixed(2)}  (at ${fmt(COST_RATE / 1e6)} million views a month; goal <= ` +
      `$${GOALS.cost.toFixed(2)}: ${verdict(h.cost <= GOALS.cost)})`,
  );
  console.log(
    `  CPU per /api/content = ${median(h.cpu.contentMemoMiss).toFixed(1)} µs  (memo cold; the constant route ` +
      `${median(h.cpu.constant).toFixed(1)} µs; for information)`,
  );
  const ratio = median(h.cpu.contentAudiencesMemoMiss) / median(h.cpu.contentMemoMiss);
  console.log(
    `  CPU per /api/content with 20 audiences on the URL = ${median(h.cpu.contentAudiencesMemoMiss).toFixed(1)} µs  ` +
      `(memo cold; ${ratio.toFixed(2)}x the URL without; goal <= ${GOALS.audiencesCpuRatio}x: ` +
      `${verdict(ratio <= GOALS.audiencesCpuRatio)})`,
  );
}
