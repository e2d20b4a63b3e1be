/**
 * The Worker's bindings in Node for the operator commands (`npm run delivery:rebuild`, `npm run secrets:reseal`):
 * the local D1 and KV of `npm start`, or with `--remote` production's D1 and KV through wrangler's remote
 * bindings (log in first with `npx wrangler login`). The commands run the Worker's own code against them.
 *
 * These files are `.mts`, typechecked with the Worker's types (scripts/ops/tsconfig.json).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getPlatformProxy, unstable_readConfig } from "wrangler";
import type { Env } from "../../worker/env";
import { applyLocalMigrations, root, stateDir } from "../dev/lib.mjs";

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

/** Runs `work` with the bindings; `where` names them for the command's report. */
export async function withBindings(remote: boolean, work: (env: Env, where: string) => Promise<void>) {
  const tmp = mkdtempSync(join(tmpdir(), "dc-operator-"));
  if (!remote) applyLocalMigrations();
  const proxy = remote
    ? await getPlatformProxy<Env>({ configPath: remoteConfig(tmp), remoteBindings: true })
    : await getPlatformProxy<Env>({ configPath, persist: { path: join(stateDir, "v3") }, remoteBindings: false });
  try {
    await work(proxy.env, remote ? "production" : "the local store");
  } finally {
    await proxy.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}
