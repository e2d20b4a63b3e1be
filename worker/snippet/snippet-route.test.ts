import { describe, expect, it } from "vitest";
import { call } from "../test/helpers";
import { SNIPPET_JS } from "./snippet.generated";

async function gzipSize(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

describe("GET /snippet.js", () => {
  it("stays within the 1,024-byte gzip budget", async () => {
    expect(await gzipSize(SNIPPET_JS)).toBeLessThanOrEqual(1024);
  });

  it("is served minified with short max-age, long stale-while-revalidate and an ETag", async () => {
    const res = await call("/snippet.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("javascript");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300, stale-while-revalidate=86400");
    const body = await res.text();
    expect(body).toBe(SNIPPET_JS);
    expect(body).not.toContain("\n");
    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^".+"$/);
    const again = await call("/snippet.js", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });
});
