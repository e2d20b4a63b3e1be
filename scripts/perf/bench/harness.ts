/**
 * @module What `npm run bench` and `npm run faults` share: the bench's Worker entry (entry.mts) bundled and run in
 * one workerd through Miniflare's API, with wrangler.toml's bindings, compatibility settings and queue batching, the
 * migrations applied, and the number formatting of their reports.
 */
import { build } from "esbuild";
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare, type V4WorkerOptionsShape } from "miniflare";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, fetch as undiciFetch } from "undici";
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from "wrangler";

const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const require = createRequire(import.meta.url);

/** A positive number from the environment, or the fallback. */
export function numberSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

async function bundleEntry(outdir: string): Promise<string> {
  const outfile = join(outdir, "entry.mjs");
  await build({
    entryPoints: [resolve(root, "scripts/perf/bench/entry.mts")],
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
    plugins: [
      {
        // What an isolate keeps, with a lane per simulated isolate (lanes.mts), for the modules of worker/delivery:
        // the delivery memo and the follower of the change feed.
        name: "isolate-lanes",
        setup(b) {
          const laned = [
            { filter: /^\.\/memo(\.ts)?$/, path: "scripts/perf/bench/memo-lanes.mts" },
            { filter: /^\.\/change-feed-follower(\.ts)?$/, path: "scripts/perf/bench/change-feed-lanes.mts" },
          ];
          for (const { filter, path } of laned) {
            b.onResolve({ filter }, (args) =>
              args.importer.startsWith(resolve(root, "worker/delivery")) ? { path: resolve(root, path) } : undefined,
            );
          }
        },
      },
    ],
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

/** "miniflare x (workerd y)": the workerd that Miniflare runs is its own dependency and may differ from ours. */
export const runtimeVersions = () =>
  `miniflare ${version("miniflare")} (workerd ${version("workerd", createRequire(require.resolve("miniflare")))})`;

export interface BenchWorker {
  mf: Miniflare;
  /** What wrangler.toml says of the queue consumers (by queue name) and the cron triggers. */
  config: {
    queueConsumers: Record<string, { maxBatchSize?: number; maxBatchTimeout?: number }>;
    crons: string[];
    /** wrangler.toml's ANALYTICS_REDUCER_SHARDS (unset: the code's default). */
    reducerShards?: string;
  };
  origin: string;
  db: Awaited<ReturnType<Miniflare["getD1Database"]>>;
  /**
   * A call to the Worker that must answer 2xx JSON, with `body` sent as JSON; no timeout but the run's own (seeding
   * may take minutes).
   */
  call: <T>(path: string, method?: string, body?: unknown, headers?: Record<string, string>) => Promise<T>;
  dispose: () => Promise<void>;
}

export interface BenchWorkerOptions {
  /**
   * Also consume the analytics dead-letter queue with the entry's queue handler, which counts what arrives there
   * (GET /__bench/d1-writes answers `deadLettered`). Production leaves it to an operator's replay.
   */
  countDeadLetters?: boolean;
  /** Receives the Worker's console lines instead of the terminal. */
  onWorkerLog?: (log: { level: string; message: string }) => void;
}

/** Starts the bench entry on a free loopback port, with an empty, migrated D1. */
export async function startBenchWorker(options: BenchWorkerOptions = {}): Promise<BenchWorker> {
  const workDir = mkdtempSync(join(tmpdir(), "dc-bench-"));
  let mf: Miniflare | undefined;
  try {
    const scriptPath = await bundleEntry(workDir);
    // Wrangler's own reading of wrangler.toml (its declared type loses the keys to an index signature).
    const w = unstable_getMiniflareWorkerOptions(resolve(root, "wrangler.toml")).workerOptions as V4WorkerOptionsShape;
    const consumers = w.queueConsumers as Record<
      string,
      { deadLetterQueue?: string; maxBatchSize?: number; maxBatchTimeout?: number }
    >;
    const deadLetterQueues = Object.values(consumers).flatMap((c) => (c.deadLetterQueue ? [c.deadLetterQueue] : []));
    // Wrangler builds v4-style options and converts them for Miniflare 5; so does the bench.
    mf = new Miniflare(
      convertV4MiniflareOptions({
        log: new Log(LogLevel.WARN),
        handleStructuredLogs: options.onWorkerLog,
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
        r2Buckets: w.r2Buckets,
        queueProducers: w.queueProducers,
        queueConsumers: options.countDeadLetters
          ? { ...consumers, ...Object.fromEntries(deadLetterQueues.map((q) => [q, { maxBatchTimeout: 1 }])) }
          : consumers,
        ratelimits: w.ratelimits,
        durableObjects: w.durableObjects,
        analyticsEngineDatasets: w.analyticsEngineDatasets,
      }),
    );
    const origin = (await mf.ready).origin;
    const db = await mf.getD1Database("DB");
    await db.batch(migrationStatements().map((s) => db.prepare(s)));
    const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
    const call = async <T>(
      path: string,
      method = "GET",
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<T> => {
      const res = await undiciFetch(new URL(path, origin), {
        method,
        dispatcher: patient,
        headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const started = mf;
    return {
      mf: started,
      config: {
        queueConsumers: consumers,
        crons: (w.cronTriggers as string[] | undefined) ?? [],
        reducerShards: (w.vars as Record<string, string> | undefined)?.ANALYTICS_REDUCER_SHARDS,
      },
      origin,
      db,
      call,
      dispose: async () => {
        await started.dispose();
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await mf?.dispose();
    rmSync(workDir, { recursive: true, force: true });
    throw err;
  }
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const pad = (s: string, n: number) => s.padEnd(n);
export const lpad = (s: string, n: number) => s.padStart(n);
export const verdict = (met: boolean) => (met ? "met" : "missed");
