/**
 * `npm run bench`: runs the real Worker modules in one workerd through Miniflare's API (not `wrangler dev`, whose
 * local proxy caps the rate) and compares, each as requests/s and p50/p99 latency:
 *   (a) a constant 1 KB answer,
 *   (b) the content lookup alone (KV document with 50 mappings of 2 KB: read, normalise, match, answer),
 *   (c) the constant answer plus one analytics message sent in waitUntil,
 *   (d) the real content endpoint (the Hono app's /api/content) with its analytics message.
 * It prints b/a and d/c, the snippet's raw and gzip bytes, and whether every enqueued message reached D1.
 * The Worker under test is scripts/bench/entry.mts, which wraps the real modules; bindings, compatibility
 * settings and the queue consumer's batching come from wrangler.toml.
 *
 * Every route gets the same load: BENCH_CONNECTIONS (10) keep-alive connections, a BENCH_WARMUP_SECONDS (2) warm-up,
 * then BENCH_SECONDS (8) measured, split into BENCH_ROUNDS (2) rounds that visit the four routes in turn, so that a
 * change in the machine's background load touches all four alike. After every run that enqueued messages the
 * bench waits (at most BENCH_DRAIN_TIMEOUT_SECONDS, 60) until they are in D1, so no run pays for another's backlog.
 * Exits non-zero on errors (failed requests, wrong answers, lost analytics messages), never on a missed goal.
 */
import { build } from "esbuild";
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare, type V4WorkerOptionsShape } from "miniflare";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from "wrangler";
import { SNIPPET_JS } from "../worker/snippet/snippet.generated";
import { combine, runLoad, summarize, type LoadResult, type Summary } from "./bench/load";
import { ROUTES, type SeedRequest, type SeedResponse } from "./bench/protocol";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const require = createRequire(import.meta.url);

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const CONNECTIONS = num("BENCH_CONNECTIONS", 10);
const SECONDS = num("BENCH_SECONDS", 8);
const ROUNDS = Math.round(num("BENCH_ROUNDS", 2));
const WARMUP_SECONDS = num("BENCH_WARMUP_SECONDS", 2);
const DRAIN_TIMEOUT_SECONDS = num("BENCH_DRAIN_TIMEOUT_SECONDS", 60);
const MAPPINGS = 50;
const HTML_BYTES = 2048;
const CONSTANT_BYTES = 1024;
const GOAL = 0.8;

const problems: string[] = [];
const fail = (message: string) => {
  problems.push(message);
  console.error(`error: ${message}`);
};

async function bundleEntry(outdir: string): Promise<string> {
  const outfile = join(outdir, "entry.mjs");
  await build({
    entryPoints: [resolve(root, "scripts/bench/entry.mts")],
    outfile,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    external: ["cloudflare:*", "node:*"],
    minify: false,
    sourcemap: false,
    logLevel: "warning",
  });
  return outfile;
}

/** The migrations of migrations/, in order, split into statements the way `wrangler d1 migrations apply` does. */
function migrationStatements(): string[] {
  const dir = resolve(root, "migrations");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .flatMap((f) => unstable_splitSqlQuery(readFileSync(join(dir, f), "utf8")));
}

function version(pkg: string, from = require): string {
  try {
    return (from(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return "?";
  }
}

/** The workerd that Miniflare runs: its own dependency, which may differ from the top-level one. */
const workerdVersion = () => version("workerd", createRequire(require.resolve("miniflare")));

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

interface Phase {
  key: "a" | "b" | "c" | "d";
  label: string;
  path: (i: number) => string;
  /** Whether each 2xx answer enqueued one analytics message. */
  enqueues: boolean;
  /** Body bytes of each answer. */
  bodyBytes: number;
}

async function main() {
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), "dc-bench-"));
  let mf: Miniflare | undefined;
  try {
    const scriptPath = await bundleEntry(workDir);
    // Wrangler's own reading of wrangler.toml (its declared type loses the keys to an index signature).
    const w = unstable_getMiniflareWorkerOptions(resolve(root, "wrangler.toml")).workerOptions as V4WorkerOptionsShape;
    // Wrangler builds v4-style options and converts them for Miniflare 5; so does the bench.
    mf = new Miniflare(
      convertV4MiniflareOptions({
        log: new Log(LogLevel.WARN),
        host: "127.0.0.1",
        port: 0,
        cf: false,
        modules: true,
        modulesRoot: workDir,
        scriptPath,
        compatibilityDate: w.compatibilityDate,
        compatibilityFlags: w.compatibilityFlags,
        bindings: { ...w.bindings, APP_SECRET: "bench-secret-0123456789abcdef0123456789abcdef" },
        d1Databases: w.d1Databases,
        kvNamespaces: w.kvNamespaces,
        queueProducers: w.queueProducers,
        queueConsumers: w.queueConsumers,
      }),
    );
    const origin = (await mf.ready).origin;
    const db = await mf.getD1Database("DB");

    const statements = migrationStatements();
    await db.batch(statements.map((s) => db.prepare(s)));

    const seedRes = await fetch(new URL(ROUTES.seed, origin), {
      method: "POST",
      body: JSON.stringify({
        email: "bench@shop.example",
        mappings: MAPPINGS,
        htmlBytes: HTML_BYTES,
      } satisfies SeedRequest),
    });
    if (!seedRes.ok) throw new Error(`seeding failed: ${seedRes.status} ${await seedRes.text()}`);
    const seed = (await seedRes.json()) as SeedResponse;
    const u = encodeURIComponent(seed.userId);

    // The i-th page a visitor opens, written the way a browser might: other case, no www, no slash, a hash.
    const page = (i: number) => seed.mappings[i % seed.mappings.length]!;
    const pageUrl = (i: number) =>
      encodeURIComponent(page(i).url.replace("https://www.shop.", "https://Shop.").replace(/\/$/, "#reviews"));
    const phases: Phase[] = [
      { key: "a", label: "constant 1 KB", path: () => ROUTES.constant, enqueues: false, bodyBytes: CONSTANT_BYTES },
      {
        key: "b",
        label: "content lookup (KV doc, 50 x 2 KB)",
        path: (i) => `${ROUTES.lookup}?u=${u}&url=${pageUrl(i)}`,
        enqueues: false,
        bodyBytes: HTML_BYTES,
      },
      {
        key: "c",
        label: "constant 1 KB + enqueue",
        path: (i) => `${ROUTES.enqueue}?u=${u}&url=${pageUrl(i)}&m=${page(i).id}`,
        enqueues: true,
        bodyBytes: CONSTANT_BYTES,
      },
      {
        key: "d",
        label: "/api/content + analytics message",
        path: (i) => `${ROUTES.content}?u=${u}&url=${pageUrl(i)}`,
        enqueues: true,
        bodyBytes: HTML_BYTES,
      },
    ];

    // Every route answers what it should before it is measured.
    let enqueued = 0;
    for (const phase of phases) {
      for (const i of [0, MAPPINGS - 1]) {
        const res = await fetch(new URL(phase.path(i), origin));
        const body = await res.text();
        if (res.ok && phase.enqueues) enqueued++;
        const expected = phase.bodyBytes;
        if (res.status !== 200 || Buffer.byteLength(body) !== expected) {
          fail(
            `(${phase.key}) answered ${res.status} with ${Buffer.byteLength(body)} bytes, expected 200 with ${expected}`,
          );
        } else if ((phase.key === "b" || phase.key === "d") && body !== page(i).html) {
          fail(`(${phase.key}) answered other HTML than mapping ${page(i).id}'s`);
        }
      }
    }
    if (problems.length) throw new Error("the routes do not answer as expected");

    const rawRows = async () => (await db.prepare("SELECT count(*) AS n FROM analytics").first<number>("n")) ?? 0;
    /** Waits until D1 holds one raw row per enqueued message, so that no run pays for an earlier run's backlog. */
    const drainTimes: number[] = [];
    const drain = async () => {
      const t0 = performance.now();
      while ((await rawRows()) < enqueued && performance.now() - t0 < DRAIN_TIMEOUT_SECONDS * 1000) {
        await new Promise((r) => setTimeout(r, 100));
      }
      drainTimes.push(performance.now() - t0);
    };
    /** Runs one route under load and books what it enqueued and what went wrong. */
    const run = async (phase: Phase, seconds: number) => {
      const result = await runLoad({ origin, path: phase.path, connections: CONNECTIONS, durationMs: seconds * 1000 });
      if (phase.enqueues) enqueued += result.ok;
      const failed = Object.entries(result.failedByStatus);
      if (failed.length) fail(`(${phase.key}) non-2xx answers: ${failed.map(([s, n]) => `${n} x ${s}`).join(", ")}`);
      if (result.errors) fail(`(${phase.key}) ${result.errors} requests failed: ${result.firstError}`);
      if (result.bytes !== result.answered * phase.bodyBytes) {
        fail(`(${phase.key}) answered ${result.bytes} body bytes, expected ${result.answered} x ${phase.bodyBytes}`);
      }
      if (phase.enqueues) await drain();
      return result;
    };

    console.log(
      `\nDynamic Content bench: miniflare ${version("miniflare")} (workerd ${workerdVersion()}), ${CONNECTIONS} connections, ` +
        `${WARMUP_SECONDS} s warm-up, then ${ROUNDS} rounds of ${fmt(SECONDS / ROUNDS, 1)} s per route, interleaved\n`,
    );
    for (const phase of phases) await run(phase, WARMUP_SECONDS);
    const runs = new Map<Phase["key"], LoadResult[]>(phases.map((p) => [p.key, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      const line: string[] = [];
      for (const phase of phases) {
        const result = await run(phase, SECONDS / ROUNDS);
        runs.get(phase.key)!.push(result);
        line.push(`(${phase.key}) ${fmt(summarize(result).requestsPerSecond)}`);
      }
      console.log(`  round ${round}: ${line.join("  ")} req/s`);
    }

    const total = Object.fromEntries(phases.map((p) => [p.key, combine(runs.get(p.key)!)])) as Record<
      Phase["key"],
      LoadResult
    >;
    const stats = Object.fromEntries(phases.map((p) => [p.key, summarize(total[p.key])])) as Record<
      Phase["key"],
      Summary
    >;
    console.log(
      `\n  ${pad("route", 42)} ${lpad("req/s", 7)} ${lpad("p50 ms", 7)} ${lpad("p99 ms", 7)} ${lpad("requests", 9)}`,
    );
    for (const p of phases) {
      const x = stats[p.key];
      console.log(
        `  ${pad(`(${p.key}) ${p.label}`, 42)} ${lpad(fmt(x.requestsPerSecond), 7)} ${lpad(fmt(x.p50Ms, 2), 7)} ` +
          `${lpad(fmt(x.p99Ms, 2), 7)} ${lpad(fmt(total[p.key].answered), 9)}`,
      );
    }
    const ratio = (name: string, x: number) =>
      console.log(`  ${name} = ${x.toFixed(2)}  (goal >= ${GOAL}: ${x >= GOAL ? "met" : "missed"})`);
    console.log("");
    ratio("b/a", stats.b.requestsPerSecond / stats.a.requestsPerSecond);
    ratio("d/c", stats.d.requestsPerSecond / stats.c.requestsPerSecond);

    const raw = Buffer.byteLength(SNIPPET_JS);
    const gzip = gzipSync(SNIPPET_JS, { level: 9 }).length;
    console.log(`\n  snippet.js: ${fmt(raw)} bytes raw, ${fmt(gzip)} bytes gzip (budget 1,024 gzip)`);

    const rows = await rawRows();
    const counted =
      (await db.prepare("SELECT coalesce(sum(total_requests), 0) AS n FROM usage_counters").first<number>("n")) ?? 0;
    const allThere = rows === enqueued && counted === enqueued;
    console.log(
      `  every enqueued message reached D1: ${allThere ? "yes" : "no"} (${fmt(rows)} of ${fmt(enqueued)} as raw rows, ` +
        `${fmt(counted)} in the usage counters; the queue drained within ${fmt(Math.max(...drainTimes) / 1000, 1)} s after each run)`,
    );
    if (!allThere)
      fail(`${fmt(enqueued - rows)} analytics messages did not reach D1 within ${DRAIN_TIMEOUT_SECONDS} s`);
    console.log(`\n  total time ${fmt((performance.now() - started) / 1000, 1)} s`);
  } finally {
    await mf?.dispose();
    rmSync(workDir, { recursive: true, force: true });
  }
  if (problems.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
