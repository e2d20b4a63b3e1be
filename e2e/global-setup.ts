/**
 * Starts the product the way `npm start` does (on a free port, with an empty database of its own) and creates
 * an admin, for the end-to-end tests. The product trusts a CA made for this run (NODE_EXTRA_CA_CERTS, which
 * wrangler hands to workerd), so the tests' SMTP servers speak real TLS.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, root } from "../scripts/lib.mjs";
import { startPayPalFake, type PayPalFake } from "../scripts/paypal-fake.mjs";
import { createTestCa, type ServerCertificate } from "./support/test-ca";

export const ADMIN = { email: "admin@e2e.test", password: "e2e-admin-password" };

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    admin: { email: string; password: string };
    /** For the tests' SMTP servers: `localhost` and 127.0.0.1, signed by the CA the product trusts. */
    mailCertificate: ServerCertificate;
  }
}

let server: ChildProcess | undefined;
let paypal: PayPalFake | undefined;
let stateDir: string | undefined;
let caDir: string | undefined;

async function waitForServer(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null && server?.exitCode !== undefined)
      throw new Error("The product exited while starting");
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

export async function setup(project: TestProject) {
  stateDir = mkdtempSync(join(tmpdir(), "dc-e2e-"));
  const env = { ...process.env, DC_STATE_DIR: stateDir, DC_SKIP_BUILD: "1" };
  const created = spawnSync(
    process.execPath,
    ["node_modules/.bin/tsx", "scripts/admin-create.ts", ADMIN.email, ADMIN.password],
    {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  if (created.status !== 0) throw new Error("admin:create failed");

  // PayPal stands in locally: the IPN post-back answers VERIFIED, and the browser SDK is a small script of ours.
  const ca = await createTestCa();
  caDir = dirname(ca.certFile);
  paypal = await startPayPalFake(0, "127.0.0.1", readFileSync(join(root, "e2e/support/paypal-sdk-standin.js"), "utf8"));
  const port = await freePort();
  server = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      PAYPAL_IPN_VERIFY_URL: paypal.url,
      PAYPAL_SDK_URL: paypal.sdkUrl,
      PAYPAL_CLIENT_ID: "e2e-client",
      NODE_EXTRA_CA_CERTS: ca.certFile,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForServer(`${baseURL}/api/auth`, 120_000);
  project.provide("baseURL", baseURL);
  project.provide("admin", ADMIN);
  project.provide("mailCertificate", ca.localhost);
}

export async function teardown() {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  await paypal?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  if (caDir) rmSync(caDir, { recursive: true, force: true });
}
