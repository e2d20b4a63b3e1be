/**
 * Starts the product the way `npm start` does (on a free port, with an empty database of its own) and creates
 * an admin, for the end-to-end tests: once for each of the run's two test workers, so that two files run at a time,
 * each against a product of its own (its database, SMTP configuration, DNS and PayPal stand-ins: nothing one file
 * sets is seen by the file running beside it). The products trust a CA made for this run (NODE_EXTRA_CA_CERTS,
 * which wrangler hands to workerd), so the tests' SMTP servers speak real TLS.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensureDevVars, freePort, root } from "../scripts/dev/lib.mjs";
import { FAKE_RECEIVER, startPayPalFake } from "./support/paypal/paypal-fake.mjs";
import { startDnsStandIn } from "./support/dns-standin";
import { createTestCa, type ServerCertificate } from "./support/test-ca";

export const ADMIN = { email: "admin@e2e.test", password: "e2e-admin-password" };
/** The marketing site the product links to in the end-to-end run (never opened). */
const SITE_URL = "https://www.dc-marketing.test";

/** One started product, with the stand-ins only it talks to. */
export interface Product {
  baseURL: string;
  /**
   * The admin's key, signed in once for the whole run: admin sign-ins are throttled per account (10 in 15
   * minutes), as they would be for anyone, and every file needs the key.
   */
  adminKey: string;
  /** The PayPal stand-in's REST API (plans are created there, as at PayPal). */
  paypalApi: string;
  /** Where tests publish DNS TXT records for the product's DNS-over-HTTPS checks (support/dns-standin.ts). */
  dnsRecordsUrl: string;
}

/** As many as the run's test workers (vitest.config.ts `maxWorkers`): a file uses its worker's (support/product.ts). */
const PRODUCTS = 2;

declare module "vitest" {
  export interface ProvidedContext {
    /** The started products, the n-th for test worker n (VITEST_POOL_ID). */
    products: Product[];
    admin: { email: string; password: string };
    siteUrl: string;
    /** For the tests' SMTP servers: `localhost` and 127.0.0.1, signed by the CA the products trust. */
    mailCertificate: ServerCertificate;
  }
}

const closers: (() => Promise<unknown> | void)[] = [];

async function waitForServer(server: ChildProcess, url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error("The product exited while starting");
    try {
      const res = await fetch(url);
      if (res.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`The product did not answer at ${url} within ${timeoutMs} ms`);
}

async function startProduct(caCertFile: string): Promise<Product> {
  const stateDir = mkdtempSync(join(tmpdir(), "dc-e2e-"));
  closers.push(() => rmSync(stateDir, { recursive: true, force: true }));
  const env = { ...process.env, DC_STATE_DIR: stateDir, DC_SKIP_BUILD: "1" };
  const created = spawnSync(
    process.execPath,
    ["node_modules/.bin/tsx", "scripts/ops/admin-create.ts", ADMIN.email, ADMIN.password],
    {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  if (created.status !== 0) throw new Error("admin:create failed");

  // PayPal stands in locally (e2e/support/paypal/paypal-fake.mjs): the IPN post-back answers VERIFIED, the REST API knows the
  // subscriptions its browser SDK stand-in created, in sandbox mode, with the recorded notification's receiver.
  const paypal = await startPayPalFake();
  closers.push(() => paypal.close());
  const dns = await startDnsStandIn();
  closers.push(() => dns.close());
  const secrets = join(stateDir, "paypal-secrets.env");
  writeFileSync(secrets, "PAYPAL_CLIENT_SECRET=e2e-secret\n");
  const port = await freePort();
  const server = spawn(process.execPath, ["scripts/dev/start.mjs"], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      DC_SECRETS_FILE: secrets,
      PAYPAL_ENVIRONMENT: "sandbox",
      PAYPAL_CLIENT_ID: "e2e-client",
      PAYPAL_API_BASE: paypal.apiBase,
      PAYPAL_IPN_VERIFY_URL: paypal.url,
      PAYPAL_SDK_URL: paypal.sdkUrl,
      PAYPAL_RECEIVER_EMAIL: FAKE_RECEIVER,
      // The outside addresses, set at run time: the SPA must show them without a rebuild. The pixel is served by
      // the product itself (the SPA's fallback page, not an image), so the browser makes no outside request.
      SITE_URL,
      TRACKING_PIXEL_URL: `http://127.0.0.1:${port}/e2e-pixel.gif`,
      NODE_EXTRA_CA_CERTS: caCertFile,
      DNS_RESOLVER_URL: dns.url,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  // Stopped before the stand-ins and the state it uses are (teardown closes in reverse order).
  closers.push(() => {
    try {
      if (server.pid) process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForServer(server, `${baseURL}/api/auth`, 180_000);
  return { baseURL, adminKey: await signInAdmin(baseURL), paypalApi: paypal.apiBase, dnsRecordsUrl: dns.recordsUrl };
}

export async function setup(project: TestProject) {
  // Once, before the products start side by side: each would otherwise write a missing .dev.vars of its own.
  ensureDevVars();
  const ca = await createTestCa();
  closers.push(() => rmSync(dirname(ca.certFile), { recursive: true, force: true }));
  const products = await Promise.all(Array.from({ length: PRODUCTS }, () => startProduct(ca.certFile)));
  project.provide("products", products);
  project.provide("admin", ADMIN);
  project.provide("siteUrl", SITE_URL);
  project.provide("mailCertificate", ca.localhost);
}

async function signInAdmin(baseURL: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`admin sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

export async function teardown() {
  for (const close of closers.reverse()) await close();
}
