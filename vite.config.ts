import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The SPA: built into dist/web, which the Worker serves as static assets.
// `npm run dev` runs this dev server with hot reload and proxies the Worker's paths to `wrangler dev`.
const workerOrigin = `http://127.0.0.1:${process.env.WORKER_PORT ?? "8788"}`;

export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss()],
  resolve: { alias: { "@": fileURLToPath(new URL("./web/src", import.meta.url)) } },
  // The manifest (dist/web/.vite/manifest.json) lets web/initial-bundle.test.ts find the initial chunks;
  // web/public/.assetsignore keeps it out of the served assets.
  build: { outDir: "../dist/web", emptyOutDir: true, manifest: true },
  server: {
    proxy: { "/api": workerOrigin, "/snippet.js": workerOrigin },
  },
});
