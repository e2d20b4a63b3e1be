import { describe, expect, it } from "vitest";
import { call, testEnv } from "../test/helpers";

const SHELL = "<!doctype html><title>Dynamic Content</title>";
const SCRIPT = "console.log(1)";

/** The build's files as Workers Static Assets holds them: the shell at /, one hashed script, nothing else. */
const assets = {
  fetch: async (input: RequestInfo) => {
    const { pathname } = new URL(input instanceof Request ? input.url : String(input));
    if (pathname === "/") return new Response(SHELL, { headers: { "Content-Type": "text/html" } });
    if (pathname === "/assets/index-abc123.js") {
      return new Response(SCRIPT, { headers: { "Content-Type": "text/javascript" } });
    }
    return new Response(null, { status: 404 });
  },
} as never;

describe("the SPA's pages and build files", () => {
  it("answers every screen's path with the shell and the page headers", async () => {
    const res = await call("/admin/users", {}, testEnv({ ASSETS: assets }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(SHELL);
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  });

  it("serves a build file immutable", async () => {
    const res = await call("/assets/index-abc123.js", {}, testEnv({ ASSETS: assets }));
    expect(await res.text()).toBe(SCRIPT);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("answers a missing build file 404 with the page headers: never the shell, never cached", async () => {
    const res = await call("/assets/x/admin", { headers: { "Sec-Fetch-Dest": "iframe" } }, testEnv({ ASSETS: assets }));
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("<!doctype html>");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });
});
