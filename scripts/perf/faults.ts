/**
 * `npm run faults`: a 60-second load on the real content endpoint (/api/content, 10 keep-alive connections over
 * loopback, Miniflare) while D1 fails for part of it, then a count of where every page view went. The timeline:
 *
 *    0-10 s  D1 works
 *   10-25 s  D1 down: every call fails, for requests and the queue consumer alike
 *   25-50 s  D1 flaky: every fourth call fails, alternately before D1 saw it and after D1 carried it out (the
 *            answer lost on its way back)
 *   50-60 s  D1 works
 *   60-75 s  a trickle of a view every 150 ms, too few to fill an isolate's bundle, so that the bundles go through
 *            the page view relay (worker/delivery/page-view-relay.ts), which is restarted every second: the bundles
 *            a restart drops must be sent by their senders
 * and the analytics reducers (worker/analytics/reducer.ts), which hold the customers' views between folds and
 * settles, restart every 3 s throughout.
 *
 * Every 200 answer sends one page view (several travel in one message). The minute cron's fold runs every
 * FOLD_EVERY_MS throughout, under the same faults, and then the reducers settle what they hold: a fold or a settle
 * that fails part-way (D1 down, or a call failing before or after D1 carried it out) must leave its views pending
 * or held for the next. Once the queue has settled (every retry
 * done), the script checks that each view was counted exactly once: the ledger of counted ids holds each once and
 * no other, every counter (customer, day, URL, mapping) adds up to the same number, nothing is left pending, the R2
 * archive holds every id, and nothing reached the dead-letter queue (which this run consumes to count it). It
 * prints the figures per phase and exits non-zero when a view was lost or counted twice, or a request failed.
 *
 * Traffic: 200 customers with 50 mapped pages each (10,000 URLs of 2 KB), visited in turn by 100,000 visitors;
 * every other customer's plan has a limit (never reached), so their views are billed visitor by visitor as well.
 * The Worker under test is the bench's entry (scripts/perf/bench/entry.mts), which injects the faults.
 */
import { gunzipSync } from "node:zlib";
import { fmt, lpad, pad, runtimeVersions, startBenchWorker } from "./bench/harness";
import { runLoad, summarize, type LoadResult } from "./bench/load";
import { ROUTES, type Counts, type D1Fault, type D1Meter } from "./bench/protocol";
import { HTML_BYTES, seed, type Scenario } from "./bench/seed";

const CONNECTIONS = 10;
const TIMELINE: { fault: D1Fault; seconds: number; label: string; trickle?: boolean }[] = [
  { fault: "none", seconds: 10, label: "D1 works" },
  { fault: "down", seconds: 15, label: "D1 down" },
  { fault: "flaky", seconds: 25, label: "D1 flaky (1 call in 4 fails)" },
  { fault: "none", seconds: 10, label: "D1 works again" },
  { fault: "none", seconds: 15, label: "trickle, relay restarting", trickle: true },
];
/** The trickle's pause between views: about 33 views in an isolate's 5 s, less than half a message. */
const TRICKLE_PAUSE_MS = 150;
/** How often the trickle's relay restarts: more often than its 2.5 s window, so that restarts drop bundles. */
const RELAY_RESTART_EVERY_MS = 1_000;
/**
 * How often every analytics reducer (worker/analytics/reducer.ts) restarts, throughout: what it held in memory is
 * then read back from its log and D1's checkpoints.
 */
const REDUCER_RESTART_EVERY_MS = 3_000;
/** How often the fold runs here: the minute cron's, compressed so that the 60 s of faults see many folds. */
const FOLD_EVERY_MS = 2_000;
/** The queue has settled when the count has not moved for this long: more than two retry delays (5 s). */
const SETTLED_AFTER_MS = 15_000;
const SETTLE_TIMEOUT_MS = 300_000;
const SCENARIO: Scenario = {
  n: 1,
  name: "200 customers x 50 URLs, every other one's plan with a limit",
  customers: 200,
  mappingsEach: 50,
  limitedEvery: 2,
};

const problems: string[] = [];
const fail = (message: string) => {
  problems.push(message);
  console.error(`error: ${message}`);
};

async function main() {
  let batchFailures = 0;
  let relayRestarts = 0;
  /** Bundles the relay did not send (dropped by a restart, or refused), which their senders sent themselves. */
  let relayFallbacks = 0;
  let reducerRestarts = 0;
  /** Settles of the analytics reducers that failed under the faults (their sums stay held for the next). */
  let reducerSettleFailures = 0;
  const otherErrors = new Map<string, number>();
  const worker = await startBenchWorker({
    countDeadLetters: true,
    onWorkerLog: ({ level, message }) => {
      if (message.includes("Analytics batch failed")) batchFailures++;
      else if (message.includes("The page view relay did not")) relayFallbacks++;
      else if (/^Reducer \d+ (could not settle|settled rows)/.test(message)) reducerSettleFailures++;
      else if (level === "error" || level === "warn") {
        const first = message.split("\n", 1)[0]!.slice(0, 120);
        otherErrors.set(first, (otherErrors.get(first) ?? 0) + 1);
      }
    },
  });
  const { mf, origin, db, call } = worker;
  try {
    const { mappings, page } = await seed(worker, [SCENARIO]);
    const total = TIMELINE.reduce((n, p) => n + p.seconds, 0);
    console.log(
      `\nDynamic Content faults: ${runtimeVersions()}; ${fmt(mappings)} mappings of ${fmt(HTML_BYTES)} bytes ` +
        `(${SCENARIO.name}); ${total} s of load on ${ROUTES.content}, ${CONNECTIONS} connections\n`,
    );

    const folds = { run: 0, failed: 0 };
    const fold = async () => {
      folds.run++;
      await call<number>(ROUTES.fold, "POST").catch(() => folds.failed++);
    };
    let loading = true;
    const restartingReducers = (async () => {
      while (loading) {
        await new Promise((r) => setTimeout(r, REDUCER_RESTART_EVERY_MS));
        await call(ROUTES.reducerRestart, "POST");
        reducerRestarts++;
      }
    })();
    const folding = (async () => {
      while (loading) {
        await fold();
        await new Promise((r) => setTimeout(r, FOLD_EVERY_MS));
      }
    })();

    let offset = 0;
    const phases: { label: string; result: LoadResult }[] = [];
    for (const phase of TIMELINE) {
      await call(`${ROUTES.d1Fault}?fault=${phase.fault}`, "POST");
      const from = offset;
      let restarting = phase.trickle === true;
      const restarts = (async () => {
        while (restarting) {
          await new Promise((r) => setTimeout(r, RELAY_RESTART_EVERY_MS));
          await call(ROUTES.relayRestart, "POST");
          relayRestarts++;
        }
      })();
      const result = await runLoad({
        origin,
        path: (i) => `${ROUTES.content}?u=${page(SCENARIO, from + i).u}&url=${page(SCENARIO, from + i).url}`,
        connections: phase.trickle ? 1 : CONNECTIONS,
        durationMs: phase.seconds * 1000,
        pauseMs: phase.trickle ? TRICKLE_PAUSE_MS : 0,
      });
      restarting = false;
      await restarts;
      offset += result.answered;
      phases.push({ label: phase.label, result });
    }
    loading = false;
    await folding;
    await restartingReducers;
    await call(`${ROUTES.d1Fault}?fault=none`, "POST");
    const served = phases.reduce((n, p) => n + p.result.ok, 0);

    const relayed = (await call<Counts>(`${ROUTES.meter}?source=fetch`)).doRequests;
    const counted = async () =>
      (await db.prepare("SELECT coalesce(sum(total_requests), 0) AS n FROM usage_counters").first<number>("n")) ?? 0;
    const settleStart = performance.now();
    let last = -1;
    let lastChange = performance.now();
    let reachedAfterMs: number | null = null;
    for (;;) {
      await fold();
      const now = await counted();
      if (now !== last) [last, lastChange] = [now, performance.now()];
      if (now >= served && reachedAfterMs === null) reachedAfterMs = performance.now() - settleStart;
      if (now >= served && performance.now() - lastChange >= SETTLED_AFTER_MS) break;
      if (performance.now() - settleStart > SETTLE_TIMEOUT_MS) break;
      await new Promise((r) => setTimeout(r, 250));
    }

    console.log(
      `  ${pad("phase", 32)} ${lpad("answers", 8)} ${lpad("200", 8)} ${lpad("other", 8)} ${lpad("req/s", 7)}`,
    );
    for (const { label, result } of phases) {
      const other = Object.entries(result.failedByStatus).map(([status, n]) => `${n} x ${status}`);
      console.log(
        `  ${pad(label, 32)} ${lpad(fmt(result.answered), 8)} ${lpad(fmt(result.ok), 8)} ` +
          `${lpad(other.join(", ") || "0", 8)} ${lpad(fmt(summarize(result).requestsPerSecond), 7)}`,
      );
      if (other.length) fail(`${label}: answers other than 200: ${other.join(", ")}`);
      if (result.errors) fail(`${label}: ${result.errors} requests failed: ${result.firstError}`);
      if (result.bytes !== result.ok * HTML_BYTES) fail(`${label}: not every 200 answer carried the mapping's HTML`);
    }

    const sum = async (sql: string) => (await db.prepare(sql).first<number>("n")) ?? 0;
    const ledger = await db
      .prepare(
        `SELECT count(*) AS ids, count(DISTINCT counted.value) AS distinctIds
         FROM analytics_ledger ledger, json_each(ledger.message_ids) counted`,
      )
      .first<{ ids: number; distinctIds: number }>();
    const counters = {
      "customers' total requests": await counted(),
      "daily usage": await sum(
        `SELECT (SELECT coalesce(sum(requests), 0) FROM daily_usage)
           + (SELECT coalesce(sum(latest_day_requests), 0) FROM usage_counters) AS n`,
      ),
      "period requests, billed or not": await sum(
        "SELECT coalesce(sum(period_requests + period_unbilled_requests), 0) AS n FROM usage_counters",
      ),
      "URL hits": await sum("SELECT coalesce(sum(hits), 0) AS n FROM url_stats"),
      "mapping requests": await sum(
        `SELECT (SELECT coalesce(sum(requests), 0) FROM mapping_stats)
           + (SELECT coalesce(sum(mapping_requests), 0) FROM url_stats) AS n`,
      ),
    };
    const pending = await sum("SELECT coalesce(sum(views), 0) AS n FROM analytics_pending");
    const archived = new Set<string>();
    let archivedLines = 0;
    const archive = await mf.getR2Bucket("ANALYTICS_ARCHIVE");
    let cursor: string | undefined;
    do {
      const listed = await archive.list({ cursor });
      for (const object of listed.objects) {
        const body = await archive.get(object.key);
        const lines = gunzipSync(Buffer.from(await body!.arrayBuffer()))
          .toString("utf8")
          .split("\n")
          .filter(Boolean);
        archivedLines += lines.length;
        for (const line of lines) archived.add((JSON.parse(line) as { id: string }).id);
      }
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);
    const meter = await call<D1Meter>(ROUTES.d1Writes);

    const lost = served - (ledger?.distinctIds ?? 0);
    const countedTwice = (ledger?.ids ?? 0) - (ledger?.distinctIds ?? 0);
    console.log(`\n  page views served (200, one page view each): ${fmt(served)}`);
    console.log(
      `  D1 calls failed on purpose: ${fmt(meter.failedBeforeD1)} before D1 saw them, ${fmt(meter.failedAfterD1)} ` +
        `after D1 carried them out (${fmt(meter.transactionsFailedAfterD1)} of them transactions: committed, ` +
        `but the consumer saw an error); consumer batches retried: ${fmt(batchFailures)}`,
    );
    console.log(
      `  page view relay: ${fmt(relayed)} bundles handed to it, ${fmt(relayRestarts)} restarts, ${fmt(relayFallbacks)} ` +
        `bundles it did not send (dropped by a restart) and their senders sent to the queue themselves`,
    );
    if (relayed === 0) fail("no bundle went through the page view relay: the trickle did not reach it");
    console.log(
      `  analytics reducers: ${fmt(reducerRestarts)} restarts of all of them (each then reads back what it held), ` +
        `${fmt(reducerSettleFailures)} settles that failed and were redone`,
    );
    console.log(
      `  counted once the queue settled (${reachedAfterMs === null ? "never reached" : `all counted ${fmt(reachedAfterMs / 1000, 1)} s after the load`}):`,
    );
    console.log(
      `    ledger of counted message ids: ${fmt(ledger?.ids ?? 0)} (${fmt(ledger?.distinctIds ?? 0)} distinct)`,
    );
    for (const [name, n] of Object.entries(counters)) {
      console.log(`    ${pad(`${name}:`, 30)} ${fmt(n)}`);
      if (n !== served) fail(`${name} add up to ${n}, not ${served}`);
    }
    console.log(
      `    ${pad("R2 archive:", 30)} ${fmt(archived.size)} distinct ids in ${fmt(archivedLines)} lines ` +
        `(a batch retried after its archive was written is archived again; readers keep the first line of an id)`,
    );
    console.log(`    ${pad("dead-letter queue:", 30)} ${fmt(meter.deadLettered)}`);
    console.log(
      `    ${pad("left pending:", 30)} ${fmt(pending)} (folds run: ${fmt(folds.run)}, of which failed and left ` +
        `their views pending: ${fmt(folds.failed)})`,
    );
    if (pending !== 0) fail(`${pending} views were left pending`);
    console.log(`\n  messages lost: ${fmt(Math.max(0, lost))}; messages counted twice: ${fmt(countedTwice)}`);
    if (lost !== 0) fail(`${lost} of ${served} messages were not counted`);
    if (countedTwice !== 0) fail(`${countedTwice} messages were counted twice`);
    if (archived.size < served) fail(`${served - archived.size} counted messages are missing from the R2 archive`);
    if (meter.deadLettered !== 0) fail(`${meter.deadLettered} messages reached the dead-letter queue`);
    if (otherErrors.size) {
      console.log(`\n  other errors the Worker logged:`);
      for (const [message, n] of otherErrors) console.log(`    ${lpad(fmt(n), 6)} x ${message}`);
    }
  } finally {
    await worker.dispose();
  }
  if (problems.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
