// `npm start`: builds the SPA and the snippet, applies migrations to the local D1, and serves the whole product
// with `wrangler dev` (workerd + Miniflare: local D1, KV and Queue) at http://127.0.0.1:${PORT:-8787}, firing the
// cron triggers of wrangler.toml at their times (scripts/dev/local-cron.mjs).
// `npm run dev` (--dev): the same Worker plus Vite's dev server with hot reload in front of it on PORT.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { applyLocalMigrations, ensureDevVars, freePort, root, run, start, stateDir } from "./lib.mjs";
import { startLocalCrons } from "./local-cron.mjs";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";

// The end-to-end tests build once, then start the product with DC_SKIP_BUILD=1.
const build = !process.env.DC_SKIP_BUILD;

ensureDevVars();
if (build) run("node", ["scripts/dev/build-snippet.mjs"]);
if (build && !dev) run("vite", ["build", "--logLevel", "warn"]);
if (dev) mkdirSync(resolve(root, "dist/web"), { recursive: true });
applyLocalMigrations();

const workerPort = dev ? await freePort() : port;
// Where the browser reaches the product: this port (Vite's with --dev). Requests for any other host answer 421.
const publicOrigin = process.env.PUBLIC_ORIGIN || `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
// Non-secret configuration given in the environment wins over .dev.vars (how the end-to-end tests point PayPal at
// local fakes). Secrets belong in .dev.vars: wrangler prints --var values, never .dev.vars ones.
const PASSED_VARS = [
  "DELIVERY_ORIGIN",
  "DNS_RESOLVER_URL",
  "CLOUDFLARE_ZONE_ID",
  "CLOUDFLARE_API_BASE",
  "MAIL_FROM",
  "MAILCHANNELS_API_URL",
  "PAYPAL_ENVIRONMENT",
  "PAYPAL_CLIENT_ID",
  "PAYPAL_API_BASE",
  "PAYPAL_IPN_VERIFY_URL",
  "PAYPAL_RECEIVER_EMAIL",
  "PAYPAL_RECEIVER_ID",
  "BILLING_CURRENCY",
  "PAYPAL_SDK_URL",
  "SITE_URL",
  "TRACKING_PIXEL_URL",
];
const passedVars = Object.entries(process.env)
  .filter(([name, value]) => PASSED_VARS.includes(name) && value)
  .flatMap(([name, value]) => ["--var", `${name}:${value}`]);
// Secrets for one run (the end-to-end tests' PayPal stand-in credentials): DC_SECRETS_FILE names a dotenv file read
// after .dev.vars, so they stay out of the environment and out of wrangler's output.
const secretFiles = process.env.DC_SECRETS_FILE
  ? ["--env-file", resolve(root, ".dev.vars"), "--env-file", resolve(process.env.DC_SECRETS_FILE)]
  : [];
const children = [
  start("wrangler", [
    "dev",
    "--ip",
    host,
    "--port",
    String(workerPort),
    "--inspector-port",
    String(await freePort()),
    "--persist-to",
    stateDir,
    "--show-interactive-dev-session=false",
    // Development: mails without a configured transport are printed in full (links and codes) to this console.
    "--var",
    "ENVIRONMENT:development",
    // The product's own origin (links in mails, the only host besides localhost at this port that it answers on).
    "--var",
    `PUBLIC_ORIGIN:${publicOrigin}`,
    ...passedVars,
    ...secretFiles,
  ]),
];
if (dev) {
  children.push(
    start("vite", ["--host", host, "--port", String(port), "--strictPort"], {
      env: { ...process.env, PATH: process.env.PATH, WORKER_PORT: String(workerPort) },
    }),
  );
}

// wrangler.toml's cron triggers (scheduled publishing, webhook retries, the daily housekeeping) at their times.
startLocalCrons(`http://${host}:${workerPort}`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
for (const child of children) {
  child.on("exit", (code) => {
    for (const other of children) if (other !== child) other.kill("SIGTERM");
    process.exit(code ?? 0);
  });
}
