import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

// The SPA: built into dist/web, which the Worker serves as static assets; web/public (the snippet, written there by
// scripts/dev/build-snippet.mjs, and the _headers of the assets the platform serves alone) is copied in as it is.
// `npm run dev` runs this dev server with hot reload and proxies the Worker's paths to `wrangler dev`.
const workerOrigin = `http://127.0.0.1:${process.env.WORKER_PORT ?? "8788"}`;

const webRoot = fileURLToPath(new URL("./web", import.meta.url));

/**
 * Writes which source modules each JavaScript chunk holds (dist/web/.vite/chunk-modules.json, kept out of the
 * served assets like the manifest), so that web/initial-bundle.test.ts can hold every admin module out of the
 * initial JavaScript, not only the pages the manifest names.
 */
function chunkModules(): Plugin {
  return {
    name: "chunk-modules",
    apply: "build",
    generateBundle(_options, bundle) {
      const modules: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        modules[output.fileName] = output.moduleIds
          .filter((id) => !id.startsWith("\0"))
          .map((id) => relative(webRoot, id.split("?")[0]!));
      }
      this.emitFile({ type: "asset", fileName: ".vite/chunk-modules.json", source: JSON.stringify(modules) });
    },
  };
}

export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss(), chunkModules()],
  resolve: { alias: { "@": fileURLToPath(new URL("./web/src", import.meta.url)) } },
  // The manifest (dist/web/.vite/manifest.json) lets web/initial-bundle.test.ts find the initial chunks;
  // web/public/.assetsignore keeps it out of the served assets.
  build: { outDir: "../dist/web", emptyOutDir: true, manifest: true },
  server: {
    // The Host header stays Vite's (PUBLIC_ORIGIN under `npm run dev`): the Worker answers only its own hosts.
    // `/snippet.js` is not the Worker's: Vite serves web/public/snippet.js, as the build copies it to dist/web.
    proxy: {
      "/api": { target: workerOrigin, changeOrigin: false },
    },
  },
});
