/**
 * `GET /snippet.js` is a Workers Static Asset, answered before and without the Worker (wrangler.toml
 * `run_worker_first`; e2e/assets.test.ts asks it of `wrangler dev`): the file scripts/dev/build-snippet.mjs writes,
 * with the headers of web/public/_headers. Asked here of wrangler.toml's real assets binding, which serves dist/web:
 * `npm run build` first (npm test does).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

async function snippet(init: RequestInit = {}): Promise<Response> {
  const res = await env.ASSETS.fetch(new Request("http://dc.test/snippet.js", init));
  if (res.status === 404) throw new Error("dist/web/snippet.js is missing: run npm run build first");
  return res;
}

async function gzipSize(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

describe("GET /snippet.js (a static asset)", () => {
  // 1,024 bytes until the visitor id and the goal call of experiments (docs/decisions.md, "The snippet's budget"),
  // 1,152 until audiences' referrer and dated id (docs/decisions.md, Issue 41).
  it("stays within the 1,202-byte gzip budget", async () => {
    expect(await gzipSize(await (await snippet()).text())).toBeLessThanOrEqual(1202);
  });

  it("is served minified, as script, with short max-age, long stale-while-revalidate and an ETag, to any origin", async () => {
    const res = await snippet();
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const body = await res.text();
    expect(body).not.toContain("\n");
    expect(body).toMatch(/^\(\(\)=>\{/);
    expect(res.headers.get("ETag")).toMatch(/^"[^"]+"$/);
  });

  it("answers a revalidation with its ETag 304, without the body", async () => {
    const etag = (await snippet()).headers.get("ETag")!;
    const again = await snippet({ headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("Cache-Control")).toBe("public, max-age=300, stale-while-revalidate=86400");
  });
});
