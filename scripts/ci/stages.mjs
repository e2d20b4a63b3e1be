// `npm test`: the stages in order, each an npm script or a vitest run, stopping at the first that fails, and at the
// end a table of how long each took (the install's too, when .ci/run measured it and passed CI_INSTALL_SECONDS).
import { spawnSync } from "node:child_process";

const STAGES = [
  ["build", "npm run build"],
  ["typecheck", "npm run typecheck"],
  ["lint:layers", "npm run lint:layers"],
  ["db:check", "npm run db:check"],
  ["unit (worker, web, node)", "vitest run --project worker --project web --project node"],
  ["e2e", "vitest run --project e2e"],
];

const rows = [];
const installSeconds = Number(process.env.CI_INSTALL_SECONDS);
if (process.env.CI_INSTALL_SECONDS && Number.isFinite(installSeconds)) rows.push(["install", installSeconds, "ok"]);

let failed;
const started = performance.now();
for (const [name, command] of STAGES) {
  const start = performance.now();
  const { status, signal } = spawnSync(command, { shell: true, stdio: "inherit" });
  const ok = status === 0;
  rows.push([name, (performance.now() - start) / 1000, ok ? "ok" : `failed (${signal ?? `exit ${status}`})`]);
  if (!ok) {
    failed = status ?? 1;
    break;
  }
}
rows.push(["npm test", (performance.now() - started) / 1000, failed === undefined ? "ok" : "failed"]);

const clock = (s) => `${Math.floor(Math.round(s) / 60)}:${String(Math.round(s) % 60).padStart(2, "0")}`;
const width = Math.max(...rows.map(([name]) => name.length));
console.log("\nStage times (m:ss)");
for (const [name, seconds, result] of rows)
  console.log(`  ${name.padEnd(width)}  ${clock(seconds).padStart(6)}  ${result}`);
process.exit(failed ?? 0);
