// Shared by the project's scripts: running commands with the project's own Node first in PATH, free ports,
// and the local state directory.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { delimiter, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const stateDir = resolve(root, process.env.DC_STATE_DIR ?? ".wrangler/state");

export const toolEnv = {
  ...process.env,
  PATH: `${resolve(root, "node_modules/.bin")}${delimiter}${process.env.PATH}`,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
};

/** Runs a command to completion, failing the script when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env: toolEnv, stdio: "inherit", ...options });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(" ")} failed (exit ${result.status})`);
    process.exit(result.status ?? 1);
  }
  return result;
}

export function start(command, args, options = {}) {
  return spawn(command, args, { cwd: root, env: toolEnv, stdio: "inherit", ...options });
}

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** `.dev.vars` holds local secrets; a fresh checkout gets one with a random APP_SECRET. */
/**
 * `.dev.vars` with a usable APP_SECRET: created from `.dev.vars.example` when missing; an existing file without
 * one (or with the example's placeholder) gets a random one added. The Worker refuses to serve with a secret
 * under 32 bytes (worker/http/app-secret-check.ts), so a short one the operator chose is only warned about.
 */
export function ensureDevVars(dir = root) {
  const file = resolve(dir, ".dev.vars");
  const secretLine = `APP_SECRET=${randomBytes(32).toString("base64")}`;
  if (!existsSync(file)) {
    const example = readFileSync(resolve(dir, ".dev.vars.example"), "utf8");
    writeFileSync(file, example.replace(/^APP_SECRET=.*$/m, secretLine));
    console.log("Created .dev.vars with a random APP_SECRET");
    return;
  }
  const vars = readFileSync(file, "utf8");
  const current = /^APP_SECRET=(.*)$/m
    .exec(vars)?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, "$1");
  if (!current || current === "change-me") {
    const updated =
      current === undefined
        ? `${vars.replace(/\n?$/, "\n")}${secretLine}\n`
        : vars.replace(/^APP_SECRET=.*$/m, secretLine);
    writeFileSync(file, updated);
    console.log("Added a random APP_SECRET to .dev.vars");
  } else if (Buffer.byteLength(current) < 32) {
    console.warn("APP_SECRET in .dev.vars is shorter than 32 bytes: the API will answer 503 until it is longer.");
  }
}

export function applyLocalMigrations() {
  run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir]);
}
