// Fails when worker/db/schema/ and the migrations disagree: runs `drizzle-kit generate` against a copy of
// migrations/ and exits 1 if it would write a new migration (a schema change nobody generated, or a snapshot
// edited by hand). `npm test` runs it; the objects drizzle cannot express are checked by worker/db/schema-drift.test.ts.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const copy = mkdtempSync(join(tmpdir(), "dc-migrations-"));
try {
  const out = join(copy, "migrations");
  cpSync("migrations", out, { recursive: true });
  const sqlFiles = () => readdirSync(out).filter((f) => f.endsWith(".sql")).length;
  const before = sqlFiles();
  // drizzle-kit reads `--out` relative to the working directory.
  execFileSync(
    "npx",
    [
      "drizzle-kit",
      "generate",
      "--dialect",
      "sqlite",
      "--schema",
      "./worker/db/schema/index.ts",
      "--out",
      relative(process.cwd(), out),
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (sqlFiles() !== before) {
    console.error(
      "worker/db/schema/ differs from the migrations: run `npm run db:generate` and commit what it writes.",
    );
    process.exit(1);
  }
  console.log("migrations: worker/db/schema/ and the migrations agree");
} finally {
  rmSync(copy, { recursive: true, force: true });
}
