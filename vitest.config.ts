import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests of plain code that touch no Worker binding: they run in Node, without workerd and without a fresh database
// per test (the worker project's setup).
const PLAIN_TESTS = [
  "contract/input-caps.test.ts",
  "contract/normalize-url.test.ts",
  "contract/seo.test.ts",
  "worker/analytics/reducer-sums.test.ts",
  "worker/billing/price-match.test.ts",
  "worker/delivery/edge-subresources.test.ts",
  "worker/http/client-info.test.ts",
  "worker/http/validate.test.ts",
  "worker/lib/experiment-assignment.test.ts",
  "worker/lib/experiment-statistics.test.ts",
  "worker/lib/special-functions.test.ts",
  "worker/models/webhook-payload.test.ts",
];

/**
 * Started first, so that the other files run beside them instead of after: files that wait on the real clock
 * (scheduled publishing: up to two runs of the minute cron, about 2 minutes) and the slowest files of the unit stage
 * (docs/performance.md, "Test run"). Without this a clean clone, which has no times of earlier runs, starts the
 * largest files first and may leave a slow small one for last.
 */
const STARTED_FIRST = [
  "e2e/scheduled-publishing.test.ts",
  "worker/routes/input-fuzz-1.test.ts",
  "worker/routes/input-fuzz-2.test.ts",
  "worker/routes/input-fuzz-3.test.ts",
  "worker/routes/authorization-1.test.ts",
  "worker/routes/authorization-2.test.ts",
  "worker/test/account-bytes.test.ts",
  "worker/delivery/store.test.ts",
];

class ClockWaitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = STARTED_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at < 0 ? STARTED_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the others keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

// Four projects: the Worker inside workerd, the SPA in jsdom, the Worker's plain code in Node, and end-to-end tests in
// Chromium.
export default defineConfig({
  test: {
    // Vitest's default in a run is one worker fewer than the cores: on a 2-core machine the Worker's files ran one at
    // a time, most of it waiting on workerd. Two at a time keep both cores busy. The e2e run starts a product for each
    // (e2e/global-setup.ts `PRODUCTS`).
    maxWorkers: 2,
    sequence: { sequencer: ClockWaitsFirst },
    projects: [
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                APP_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
                // Tests of production behaviour pass their own env (worker/test/helpers.ts testEnv).
                ENVIRONMENT: "development",
                // Four reducers, not production's 64: a test that asks every shard stays quick.
                ANALYTICS_REDUCER_SHARDS: "4",
                // Each page view its own analytics message at once: tests of bundling set their own window.
                PAGE_VIEW_BUNDLE_MS: "0",
                // The product's own origin: `call` (worker/test/helpers.ts) asks it; other hosts are customers' or 421.
                PUBLIC_ORIGIN: "http://dc.test",
                // Claims are proven against a stand-in resolver (worker/test/dns-standin.ts), never the Internet.
                DNS_RESOLVER_URL: "https://dns.test/dns-query",
                TEST_MIGRATIONS: await readD1Migrations(path("./migrations")),
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["worker/**/*.test.ts", "contract/**/*.test.ts"],
          // One workerd per test worker for all its files, not one per file: starting workerd and loading the app's
          // modules for each of about 90 files took about half the stage. Each test still starts from an empty,
          // migrated database and empty KV (test/apply-migrations.ts); modules' memory outlives a file, as it
          // outlives a test.
          isolate: false,
          // Some tests write thousands of rows; with two files, two browsers and their products sharing two cores a
          // test may take past vitest's 5 s.
          testTimeout: 15_000,
          exclude: ["worker/**/*.node.test.ts", ...PLAIN_TESTS],
          // Production's D1/KV limits first, so that everything after them (migrations included) runs under them.
          // The resolver stand-in: no test's DNS lookup (outbound targets, proofs) leaves the machine.
          setupFiles: [
            "./worker/test/platform-limits/install.ts",
            "./worker/test/apply-migrations.ts",
            "./worker/test/resolver-standin.ts",
          ],
          // Local SMTP servers with real TLS and a MailChannels stand-in, in Node (worker/test/node/).
          globalSetup: ["./worker/test/node/mail-standins.ts"],
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { "@": path("./web/src") } },
        test: {
          name: "web",
          environment: "jsdom",
          include: ["web/**/*.test.{ts,tsx}"],
          // Screens rendered with their queries, on two loaded cores, may take past vitest's 5 s.
          testTimeout: 15_000,
          setupFiles: ["./web/src/test/setup.ts"],
        },
      },
      {
        // The plain code above, and plain data classes of the Worker measured in Node, where memory can be read (workerd
        // does not report it); the scripts' own tests.
        test: {
          name: "node",
          environment: "node",
          include: ["worker/**/*.node.test.ts", "scripts/**/*.test.ts", ...PLAIN_TESTS],
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          globalSetup: ["./e2e/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two files at a time, each against its test worker's own product (e2e/global-setup.ts). Two browsers, two
          // workerd and their queues share two cores with the tests: give a polled condition time.
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
});
