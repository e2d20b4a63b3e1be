/**
 * `npm run delivery:rebuild -- <userId|--all> [--remote]`: rebuilds delivery store entries from D1, for repair
 * after an incident and once after the move to the per-URL store (README, "Deploy"). It runs the Worker's own
 * rebuild (worker/delivery/rebuild.ts: bounded pages, one customer after another) in Node, against the local D1
 * and KV of `npm start`, or with --remote against production's (wrangler's remote bindings; log in first with
 * `npx wrangler login`).
 *
 * Named `.mts` and typechecked with the Worker's types (scripts/delivery-rebuild/tsconfig.json): the rebuild is
 * Worker code, and wrangler's platform proxy gives it the bindings it has in a Worker.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getPlatformProxy, unstable_readConfig } from "wrangler";
import type { Env } from "../../worker/env";
import { rebuildAll, rebuildCustomer, type RebuildResult } from "../../worker/delivery/rebuild";
import { applyLocalMigrations, root, stateDir } from "../lib.mjs";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const all = args.includes("--all");
const [userId] = args.filter((a) => !a.startsWith("--"));
if (all === Boolean(userId) || args.some((a) => a.startsWith("--") && a !== "--all" && a !== "--remote")) {
  console.error("Usage: npm run delivery:rebuild -- <userId|--all> [--remote]");
  process.exit(2);
}

const configPath = resolve(root, "wrangler.toml");

/** A configuration with only the D1 database and the KV namespace, both bound to production. */
function remoteConfig(dir: string): string {
  const config = unstable_readConfig({ config: configPath });
  const file = join(dir, "wrangler.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      compatibility_flags: config.compatibility_flags,
      d1_databases: config.d1_databases.map((d: object) => ({ ...d, remote: true })),
      kv_namespaces: config.kv_namespaces.map((k: object) => ({ ...k, remote: true })),
    }),
  );
  return file;
}

const report = (id: string, r: RebuildResult) =>
  console.log(`${id}: ${r.written} entries written, ${r.removed} stale entries removed`);

const tmp = mkdtempSync(join(tmpdir(), "dc-rebuild-"));
if (!remote) applyLocalMigrations();
const proxy = remote
  ? await getPlatformProxy<Env>({ configPath: remoteConfig(tmp), remoteBindings: true })
  : await getPlatformProxy<Env>({ configPath, persist: { path: join(stateDir, "v3") }, remoteBindings: false });
try {
  const where = remote ? "production" : "the local store";
  if (all) console.log(`Rebuilt ${await rebuildAll(proxy.env, report)} customers in ${where}.`);
  else report(userId!, await rebuildCustomer(proxy.env, userId!));
} finally {
  await proxy.dispose();
  rmSync(tmp, { recursive: true, force: true });
}
