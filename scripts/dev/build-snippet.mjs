// Bundles and minifies worker/snippet/snippet.js into web/public/snippet.js, which Vite copies into dist/web:
// `/snippet.js` is a Workers Static Asset, answered before and without the Worker (wrangler.toml
// `run_worker_first`), with the headers of web/public/_headers. Runs before build, start, dev and bench; Vite's dev
// server (`npm run dev`) serves the same file.
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, buildSync } from "esbuild";

const path = (p) => fileURLToPath(new URL(p, import.meta.url));

// The URL rules' tracking parameters (contract/url-rules.ts) as one case-insensitive regex literal, the module
// `tracking-pattern` the snippet imports: the snippet then carries no list and no code that joins it.
const rules = buildSync({
  entryPoints: [path("../../contract/url-rules.ts")],
  bundle: true,
  format: "esm",
  write: false,
});
const { TRACKING_PARAMETERS } = await import(`data:text/javascript,${encodeURIComponent(rules.outputFiles[0].text)}`);
const trackingPattern = new RegExp(`^(${TRACKING_PARAMETERS.join("|").replace(/\*/g, ".*")})$`, "i");
const trackingModule = {
  name: "tracking-pattern",
  setup(b) {
    b.onResolve({ filter: /^tracking-pattern$/ }, () => ({ path: "tracking-pattern", namespace: "snippet" }));
    b.onLoad({ filter: /.*/, namespace: "snippet" }, () => ({ contents: `export default ${trackingPattern};` }));
  },
};

const { outputFiles } = await build({
  entryPoints: [path("../../worker/snippet/snippet.js")],
  bundle: true,
  format: "iife",
  minify: true,
  // ES2019 for `catch {}` without a binding (Chrome 66, Firefox 58, Safari 11.1).
  target: "es2019",
  plugins: [trackingModule],
  legalComments: "none",
  write: false,
});
const body = outputFiles[0].text.trim();
writeFileSync(new URL("../../web/public/snippet.js", import.meta.url), body);
// What this script wrote before the snippet became a static asset: no longer ignored by git or Prettier.
rmSync(new URL("../../worker/snippet/snippet.generated.ts", import.meta.url), { force: true });
console.log(`snippet.js: ${Buffer.byteLength(body)} bytes minified`);
