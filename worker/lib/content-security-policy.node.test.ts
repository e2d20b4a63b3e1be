import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { blockedBy, parsePolicies, sourcesAllow } from "./content-security-policy";

const page = new URL("https://shop.example/offer");
const ours = new URL("https://cdn.dc.example/snippet.js");
const allows = (sources: string, target = ours, from = page) => sourcesAllow(sources.split(" "), target, from);

describe("CSP source lists", () => {
  it("match hosts exactly or by a leading wildcard, which excludes the bare domain", () => {
    expect(allows("https://cdn.dc.example")).toBe(true);
    expect(allows("cdn.dc.example")).toBe(true);
    expect(allows("*.dc.example")).toBe(true);
    expect(allows("*.cdn.dc.example")).toBe(false);
    expect(allows("https://other.example")).toBe(false);
  });

  it("match schemes, upgrading http to https, and '*' for any web URL", () => {
    expect(allows("https:")).toBe(true);
    expect(allows("http:")).toBe(true);
    expect(allows("http://cdn.dc.example")).toBe(true);
    expect(allows("data:")).toBe(false);
    expect(allows("*")).toBe(true);
    expect(allows("'none'")).toBe(false);
  });

  it("match ports and paths", () => {
    expect(allows("https://cdn.dc.example:443")).toBe(true);
    expect(allows("https://cdn.dc.example:8443")).toBe(false);
    expect(allows("https://cdn.dc.example:*")).toBe(true);
    expect(allows("https://cdn.dc.example/snippet.js")).toBe(true);
    expect(allows("https://cdn.dc.example/scripts/")).toBe(false);
    expect(allows("https://cdn.dc.example/")).toBe(true);
  });

  it("match 'self' against the page's own origin only", () => {
    expect(allows("'self'")).toBe(false);
    expect(allows("'self'", new URL("https://shop.example/snippet.js"))).toBe(true);
  });
});

describe("what a policy blocks of the snippet", () => {
  const targets = (inline: { text: string; nonce: string | null } | null) => ({
    inline,
    script: ours,
    content: new URL("https://cdn.dc.example/api/content"),
  });
  const blocked = async (policy: string, inline: { text: string; nonce: string | null } | null = null) =>
    blockedBy(parsePolicies(policy)[0]!, page, targets(inline));

  it("falls back from script-src-elem and connect-src to default-src", async () => {
    expect(await blocked("default-src 'self'")).toEqual([
      { directive: "default-src", what: "script" },
      { directive: "default-src", what: "requests" },
    ]);
    expect(await blocked("default-src 'self'; script-src-elem https:; connect-src *")).toEqual([]);
  });

  it("lets the inline part run by 'unsafe-inline' only without nonces or hashes, else by its nonce or sha256 hash", async () => {
    const inline = { text: "setDynamicContentUserId('u1');", nonce: null };
    const hash = `'sha256-${createHash("sha256").update(inline.text).digest("base64")}'`;
    expect(await blocked("script-src 'unsafe-inline' https:", inline)).toEqual([]);
    expect(await blocked("script-src 'unsafe-inline' 'nonce-n1' https:", inline)).toEqual([
      { directive: "script-src", what: "inline" },
    ]);
    expect(await blocked("script-src 'nonce-n1' https:", { ...inline, nonce: "n1" })).toEqual([]);
    expect(await blocked(`script-src ${hash} https:`, inline)).toEqual([]);
  });

  it("leaves a 'strict-dynamic' policy's script tags to the page's nonces", async () => {
    expect(await blocked("script-src 'strict-dynamic' 'nonce-n1'")).toEqual([]);
  });

  it("parses each comma-separated policy of a header on its own", () => {
    expect(parsePolicies("script-src 'self', connect-src https:")).toHaveLength(2);
  });
});
