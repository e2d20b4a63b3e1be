// Bundles and minifies worker/snippet/snippet.js (with the URL rules it imports) into web/public/snippet.js, which
// Vite copies into dist/web: `/snippet.js` is a Workers Static Asset, answered before and without the Worker
// (wrangler.toml `run_worker_first`), with the headers of web/public/_headers. Runs before build, start, dev and
// bench; Vite's dev server (`npm run dev`) serves the same file.
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const { outputFiles } = buildSync({
  entryPoints: [fileURLToPath(new URL("../../worker/snippet/snippet.js", import.meta.url))],
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2017",
  legalComments: "none",
  write: false,
});
const body = outputFiles[0].text.trim();
writeFileSync(new URL("../../web/public/snippet.js", import.meta.url), body);
// What this script wrote before the snippet became a static asset: no longer ignored by git or Prettier.
rmSync(new URL("../../worker/snippet/snippet.generated.ts", import.meta.url), { force: true });
console.log(`snippet.js: ${Buffer.byteLength(body)} bytes minified`);
