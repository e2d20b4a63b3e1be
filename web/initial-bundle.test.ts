/**
 * @module The customer SPA's initial JavaScript, measured on the real build (`npm test` builds first): at most
 * 150 kB gzipped, and no admin or export code in it (docs/spa.md "Code splitting").
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";

/** Gzipped bytes (zlib's default level, 6), 1 kB = 1,000 bytes as Vite reports sizes. */
const INITIAL_JS_BUDGET = 150_000;

// Paths from import.meta.dirname: Vite would rewrite `new URL(path, import.meta.url)` as an asset.
const dist = join(import.meta.dirname, "../dist/web");
const manifestPath = join(dist, ".vite/manifest.json");
/** Which source modules each chunk holds (vite.config.ts `chunkModules`), relative to web/. */
const chunkModulesPath = join(dist, ".vite/chunk-modules.json");

/** The screens only admins use: nothing under it may be in the initial JavaScript. */
const ADMIN_FOLDER = "src/features/admin/";

/** Text that only admin screens and SheetJS carry; minifying keeps string literals. */
const ADMIN_AND_EXPORT_MARKERS = [
  "Nutzerübersicht",
  "Event-Verwaltung",
  "Export Full Details (XLSX)",
  "Transaction Details",
  "Update SMTP Config",
  "SheetJS",
];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

let manifest: Manifest;
/** Manifest keys of the entry and of every chunk it imports statically, transitively. */
let initialKeys: Set<string>;
let initialFiles: string[];

const readAsset = (file: string) => readFileSync(join(dist, file));
const gzipped = (file: string) => gzipSync(readAsset(file)).length;

function entryKey(): string {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  expect(entries, "the build has one entry, index.html").toEqual(["index.html"]);
  return "index.html";
}

/** Static imports only: what index.html loads (script and modulepreloads) before the first screen renders. */
function staticClosure(start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  for (let key = pending.pop(); key !== undefined; key = pending.pop()) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest names ${key} but has no entry for it`);
    seen.add(key);
    pending.push(...(chunk.imports ?? []));
  }
  return seen;
}

beforeAll(() => {
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run npm run build first`);
  manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  initialKeys = staticClosure(entryKey());
  initialFiles = [...initialKeys].map((key) => manifest[key]!.file);
});

describe("the customer SPA's initial JavaScript", () => {
  it("is what index.html loads: its module script and its modulepreloads", () => {
    const html = readFileSync(join(dist, "index.html"), "utf8");
    const scripts = [...html.matchAll(/<script type="module"[^>]*\ssrc="\/([^"]+)"/g)].map((m) => m[1]);
    const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*\shref="\/([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect([...scripts, ...preloads].sort()).toEqual([...initialFiles].sort());
  });

  it(`is at most ${INITIAL_JS_BUDGET / 1000} kB gzipped`, () => {
    const sizes = initialFiles.map((file) => ({ file, gzipped: gzipped(file) }));
    const total = sizes.reduce((sum, { gzipped }) => sum + gzipped, 0);
    const breakdown = sizes
      .sort((a, b) => b.gzipped - a.gzipped)
      .map(({ file, gzipped }) => `  ${file}: ${(gzipped / 1000).toFixed(1)} kB`)
      .join("\n");
    expect(
      total,
      `initial JS is ${(total / 1000).toFixed(1)} kB gzipped, over the budget of ${INITIAL_JS_BUDGET / 1000} kB; ` +
        `load the new code lazily (docs/spa.md "Code splitting"):\n${breakdown}\n`,
    ).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
  });

  it("holds no module of features/admin/, which the lazy chunks hold", () => {
    const modules = JSON.parse(readFileSync(chunkModulesPath, "utf8")) as Record<string, string[]>;
    const adminIn = (files: string[]) =>
      files.flatMap((file) => modules[file] ?? []).filter((m) => m.startsWith(ADMIN_FOLDER));
    expect(initialFiles.every((file) => modules[file] !== undefined)).toBe(true);
    expect(adminIn(initialFiles)).toEqual([]);
    const lazyFiles = Object.keys(modules).filter((file) => !initialFiles.includes(file));
    expect(adminIn(lazyFiles).length).toBeGreaterThan(50);
  });

  it("holds no admin screen: each is a chunk of its own, loaded by dynamic import", () => {
    const adminFolder = join(import.meta.dirname, ADMIN_FOLDER);
    const adminPages = readdirSync(adminFolder, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith("-page.tsx"))
      .map((name) => `${ADMIN_FOLDER}${name}`);
    expect(adminPages.length).toBeGreaterThanOrEqual(8);
    for (const page of adminPages) {
      // A page imported statically anywhere would be folded into that chunk and have no manifest entry of its own.
      expect(manifest[page]?.isDynamicEntry, `${page} is a dynamically imported chunk`).toBe(true);
      expect(initialKeys.has(page), `${page} is not in the initial JS`).toBe(false);
    }
  });

  it("holds no SheetJS: xlsx is a chunk that only non-initial (admin) chunks import, on demand", () => {
    const xlsxKeys = Object.keys(manifest).filter((key) => key.includes("node_modules/xlsx/"));
    expect(xlsxKeys).toHaveLength(1);
    const xlsx = xlsxKeys[0]!;
    expect(manifest[xlsx]?.isDynamicEntry).toBe(true);
    expect(initialKeys.has(xlsx)).toBe(false);
    const importers = Object.keys(manifest).filter((key) => manifest[key]?.dynamicImports?.includes(xlsx));
    expect(importers).not.toHaveLength(0);
    for (const importer of importers) expect(initialKeys.has(importer), `${importer} loads xlsx`).toBe(false);
  });

  it("holds none of the admin screens' and SheetJS's text, which the lazy chunks do hold", () => {
    const allFiles = Object.values(manifest).map((chunk) => chunk.file);
    const contents = new Map(allFiles.map((file) => [file, readAsset(file).toString("utf8")]));
    for (const marker of ADMIN_AND_EXPORT_MARKERS) {
      const holders = allFiles.filter((file) => contents.get(file)!.includes(marker));
      expect(holders, `some chunk holds '${marker}'`).not.toHaveLength(0);
      expect(
        holders.filter((file) => initialFiles.includes(file)),
        `initial chunks holding '${marker}'`,
      ).toEqual([]);
    }
  });
});
