import { defineConfig } from "drizzle-kit";

// Generates SQL migrations from worker/db/schema/ (one file per aggregate); wrangler applies them (`wrangler d1 migrations apply`).
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/schema/index.ts",
  out: "./migrations",
});
