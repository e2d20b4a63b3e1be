import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Website } from "#contract/responses";
import { edgeHostIndexKey, edgeHostKey } from "../delivery/keys";
import { websites } from "../db/schema";
import { runDaily, runEveryMinute } from "../scheduled";
import { standInDns, proveWebsite, type DnsStandIn } from "../test/websites";
import { storedState } from "../test/delivery-store";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { WEBSITES_PER_CUSTOMER } from "./websites";

const put = (apiKey: string, hostname: string, json: unknown, e = testEnv()) =>
  call(`/api/websites/${hostname}`, { method: "PUT", apiKey, json }, e);
const verify = (apiKey: string, hostname: string) =>
  call(`/api/websites/${hostname}/verify`, { method: "POST", apiKey });
const release = (apiKey: string, hostname: string) => call(`/api/websites/${hostname}`, { method: "DELETE", apiKey });

const edge = { origin: "https://origin.shop.test", mode: "edge" } as const;
const DAY = 24 * 60 * 60 * 1000;

let dns: DnsStandIn;
beforeEach(() => {
  dns = standInDns();
});
afterEach(() => vi.restoreAllMocks());

describe("claiming a website: PUT /api/websites/{hostname}", () => {
  it("makes a pending claim with the TXT record that proves it, and serves nothing until then", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const created = await put(apiKey, "WWW.Shop.test.", edge);
    expect(created.status).toBe(201);
    const claim = (await created.json()) as Website;
    expect(claim).toMatchObject({
      hostname: "shop.test",
      origin: "https://origin.shop.test",
      mode: "edge",
      status: "pending",
      verification: { type: "txt", name: "_dynamic-content.shop.test" },
      verifiedAt: null,
      checkedAt: null,
      checkProblem: null,
    });
    expect(claim.verification.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(claim.expiresAt!) - Date.parse(claim.createdAt)).toBe(7 * DAY);
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"))).toBeNull();
    expect((await storedState(user.id))?.edgeHosts).toBeUndefined();
    expect(await (await call("/api/websites", { apiKey })).json()).toEqual([claim]);
    expect(await (await call("/api/websites/shop.test", { apiKey })).json()).toEqual(claim);
  });

  it("proves the hostname through DNS-over-HTTPS and only then writes its delivery entries", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const claim = (await (await put(apiKey, "shop.test", edge)).json()) as Website;

    const missing = await verify(apiKey, "shop.test");
    expect(missing.status).toBe(200);
    expect(await missing.json()).toMatchObject({
      status: "pending",
      checkProblem:
        "No TXT record found at _dynamic-content.shop.test yet. DNS changes can take a few minutes to appear.",
    });
    dns.records.set("_dynamic-content.shop.test", ["someone-else"]);
    expect(await (await verify(apiKey, "shop.test")).json()).toMatchObject({
      status: "pending",
      checkProblem: "The TXT record at _dynamic-content.shop.test does not hold this claim's value.",
    });
    dns.down = true;
    expect(await (await verify(apiKey, "shop.test")).json()).toMatchObject({
      status: "pending",
      checkProblem: "The DNS check could not be completed. Please try again in a few minutes.",
    });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"))).toBeNull();

    dns.down = false;
    dns.records.set("_dynamic-content.shop.test", ["v=spf1 -all", claim.verification.value]);
    const proven = await verify(apiKey, "shop.test");
    expect(proven.status).toBe(200);
    expect(proven.headers.get("X-Delivery-Everywhere-By")).not.toBeNull();
    expect(await proven.json()).toMatchObject({ status: "active", expiresAt: null, checkProblem: null });
    expect(dns.asked.at(-1)).toBe("_dynamic-content.shop.test");
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toEqual({
      userId: user.id,
      origin: "https://origin.shop.test",
    });
    expect(await env.DELIVERY.get(edgeHostIndexKey(user.id, "shop.test"))).toBe("");
    expect((await storedState(user.id))?.edgeHosts).toEqual(["shop.test"]);
  });

  it("reads a TXT record split into several strings, as long records are", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const claim = (await (await put(apiKey, "shop.test", edge)).json()) as Website;
    const value = claim.verification.value;
    vi.restoreAllMocks();
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({ Status: 0, Answer: [{ type: 16, data: `"${value.slice(0, 10)}" "${value.slice(10)}"` }] }),
    );
    expect(await (await verify(apiKey, "shop.test")).json()).toMatchObject({ status: "active" });
  });

  it("changes an active website's origin and mode at once, and a snippet website is not proxied", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await proveWebsite(dns, apiKey, "shop.test", edge);
    const changed = await put(apiKey, "shop.test", { origin: "http://origin.shop.test:8080", mode: "snippet" });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      status: "active",
      origin: "http://origin.shop.test:8080",
      mode: "snippet",
    });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"))).toBeNull();
    expect(await env.DELIVERY.get(edgeHostIndexKey(user.id, "shop.test"))).toBeNull();
    expect((await storedState(user.id))?.edgeHosts).toBeUndefined();
  });

  it("lets anyone claim a hostname another account has only claimed, and whoever proves it first holds it", async () => {
    const squatter = await createVerifiedCustomer("squatter@example.com");
    const owner = await createVerifiedCustomer("owner@example.com");
    expect((await put(squatter.apiKey, "bigshop.test", { ...edge, origin: "https://evil.test" })).status).toBe(201);
    const claim = (await (await put(owner.apiKey, "www.bigshop.test", edge)).json()) as Website;
    expect(claim.status).toBe("pending");

    // Only the owner can put their token into the hostname's DNS.
    dns.records.set("_dynamic-content.bigshop.test", [claim.verification.value]);
    expect(await (await verify(squatter.apiKey, "bigshop.test")).json()).toMatchObject({ status: "pending" });
    expect(await (await verify(owner.apiKey, "bigshop.test")).json()).toMatchObject({ status: "active" });
    expect(await env.DELIVERY.get(edgeHostKey("bigshop.test"), "json")).toMatchObject({ userId: owner.user.id });

    // From now on the hostname is the owner's: a new claim is refused, a pending one can never become active.
    const refused = await put(squatter.apiKey, "bigshop.test", { ...edge, origin: "https://evil.test" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: "bigshop.test belongs to another account" });
    dns.records.set("_dynamic-content.bigshop.test", [claim.verification.value, "anything"]);
    const late = await verify(squatter.apiKey, "bigshop.test");
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ error: "bigshop.test was proven by another account first" });
    expect(await env.DELIVERY.get(edgeHostKey("bigshop.test"), "json")).toMatchObject({ userId: owner.user.id });
  });

  it("keeps at most one active claim per hostname even when two are proven at once", async () => {
    const a = await createVerifiedCustomer("a@example.com");
    const b = await createVerifiedCustomer("b@example.com");
    const claimA = (await (await put(a.apiKey, "shop.test", edge)).json()) as Website;
    const claimB = (await (await put(b.apiKey, "shop.test", edge)).json()) as Website;
    dns.records.set("_dynamic-content.shop.test", [claimA.verification.value, claimB.verification.value]);
    const answers = await Promise.all([verify(a.apiKey, "shop.test"), verify(b.apiKey, "shop.test")]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const active = await db().query.websites.findMany({ where: (w, { eq }) => eq(w.status, "active") });
    expect(active).toHaveLength(1);
  });

  it("checks DNS for an account at most 30 times an hour, then refuses with 429 and asks nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await put(apiKey, "shop.test", edge);
    for (let i = 0; i < 30; i++) expect((await verify(apiKey, "shop.test")).status).toBe(200);
    const refused = await verify(apiKey, "shop.test");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Too many DNS checks. Please try again in an hour." });
    expect(dns.asked).toHaveLength(30);
  });

  it("lets an unproven claim lapse after 7 days, and the daily cron deletes it", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await put(apiKey, "shop.test", edge);
    await db()
      .update(websites)
      .set({ createdAt: new Date(Date.now() - 7 * DAY - 1000) });
    expect(await (await call("/api/websites", { apiKey })).json()).toEqual([]);
    expect((await verify(apiKey, "shop.test")).status).toBe(404);
    await runDaily(testEnv());
    expect(await db().select().from(websites)).toEqual([]);
    // Claimed again: a new claim, with a new value and seven new days.
    expect((await put(apiKey, "shop.test", edge)).status).toBe(201);
  });

  it("checks pending claims in the minute cron and proves them there", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const claim = (await (await put(apiKey, "shop.test", edge)).json()) as Website;
    const now = Date.now();
    await runEveryMinute(testEnv(), new Date(now));
    expect(dns.asked).toEqual(["_dynamic-content.shop.test"]);
    // Checked again five minutes later, not before.
    await runEveryMinute(testEnv(), new Date(now + 60_000));
    expect(dns.asked).toHaveLength(1);
    dns.records.set("_dynamic-content.shop.test", [claim.verification.value]);
    await runEveryMinute(testEnv(), new Date(now + 5 * 60_000 + 1));
    expect(await (await call("/api/websites/shop.test", { apiKey })).json()).toMatchObject({ status: "active" });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({ userId: user.id });
  });

  it.each([
    ["not a hostname", "shop_test", edge, "Hostname must be a domain name such as shop.example.com"],
    ["a single label", "localhost", edge, "Hostname must be a domain name such as shop.example.com"],
    ["an IP address", "203.0.113.7", edge, "Hostname must be a domain name such as shop.example.com"],
    [
      "the product's own host",
      "dc.test",
      edge,
      "dc.test is Dynamic Content's own hostname and cannot be a customer's website",
    ],
    [
      "a host under the product's own domain",
      "edge.dc.test",
      edge,
      "edge.dc.test is Dynamic Content's own hostname and cannot be a customer's website",
    ],
    [
      "Cloudflare's workers.dev",
      "dc.acme.workers.dev",
      edge,
      "dc.acme.workers.dev is Dynamic Content's own hostname and cannot be a customer's website",
    ],
    [
      "an origin that is not a URL",
      "shop.test",
      { ...edge, origin: "0" },
      "Origin must be a URL such as https://origin.shop.example",
    ],
    [
      "an origin that is not http(s)",
      "shop.test",
      { ...edge, origin: "ftp://origin.shop.test" },
      "Origin must start with http:// or https://",
    ],
    [
      "an origin with a path",
      "shop.test",
      { ...edge, origin: "https://origin.shop.test/shop" },
      "Origin must be a scheme, host and port only, without a path, query or credentials",
    ],
    [
      "an origin with credentials",
      "shop.test",
      { ...edge, origin: "https://u:p@origin.shop.test" },
      "Origin must be a scheme, host and port only, without a path, query or credentials",
    ],
    [
      "the website as its own origin",
      "shop.test",
      { ...edge, origin: "https://www.shop.test" },
      "Origin must be the server that serves the website, not the website's own hostname",
    ],
    [
      "the product as origin",
      "shop.test",
      { ...edge, origin: "http://dc.test" },
      "Origin must be the website's own server, not Dynamic Content",
    ],
    [
      "another host of the product's domain as origin",
      "shop.test",
      { ...edge, origin: "https://www.dc.test" },
      "Origin must be the website's own server, not Dynamic Content",
    ],
    [
      "an origin that names an internal host",
      "shop.test",
      { ...edge, origin: "https://db.internal" },
      "Origin must be a public hostname such as https://origin.shop.example, not an IP address or a local name",
    ],
    ["an unknown mode", "shop.test", { ...edge, mode: "proxy" }, 'Mode must be "snippet" or "edge"'],
  ])("refuses %s with a message and stores nothing", async (_, hostname, body, message) => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await put(apiKey, hostname, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(message);
    expect(await db().select().from(websites)).toEqual([]);
  });

  it("refuses the product's own hosts, its domain and http origins in production", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const production = testEnv({
      ENVIRONMENT: "production",
      PUBLIC_ORIGIN: "https://app.dynamic-content.test",
      DELIVERY_ORIGIN: "https://cdn.dc-delivery.test",
    });
    for (const hostname of [
      "app.dynamic-content.test",
      "dynamic-content.test",
      "edge.dynamic-content.test",
      "x.dc-delivery.test",
    ]) {
      const res = await put(apiKey, hostname, edge, production);
      expect(res.status, hostname).toBe(400);
      expect(await res.json()).toEqual({
        error: `${hostname} is Dynamic Content's own hostname and cannot be a customer's website`,
      });
    }
    const http = await put(apiKey, "shop.test", { ...edge, origin: "http://origin.shop.test" }, production);
    expect(await http.json()).toEqual({ error: "Origin must start with https://" });
    const address = await put(apiKey, "shop.test", { ...edge, origin: "http://127.0.0.1:8080" }, production);
    expect(await address.json()).toEqual({ error: "Origin must start with https://" });
    const ip = await put(apiKey, "shop.test", { ...edge, origin: "https://10.0.0.8" }, production);
    expect(await ip.json()).toEqual({
      error: "Origin must be a public hostname such as https://origin.shop.example, not an IP address or a local name",
    });
    expect((await put(apiKey, "shop.test", edge, production)).status).toBe(201);
  });

  it("in production resolves the origin's name on save and refuses private, loopback or reserved answers (P-11)", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const production = testEnv({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "https://app.dynamic-content.test" });
    for (const [name, addresses] of [
      ["loopback.origin.test", ["127.0.0.1"]],
      ["metadata.origin.test", ["169.254.169.254"]],
      ["mixed.origin.test", ["93.184.216.34", "fe80::1"]],
    ] as const) {
      dns.addresses.set(name, [...addresses]);
      const res = await put(apiKey, "shop.test", { ...edge, origin: `https://${name}` }, production);
      expect(res.status, name).toBe(400);
      expect(await res.json()).toEqual({
        error: "Origin's host name must resolve to public addresses only, not to a private, loopback or reserved one",
      });
    }
    expect(await db().select().from(websites)).toEqual([]);
    dns.addresses.set("origin.shop.test", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]);
    expect((await put(apiKey, "shop.test", edge, production)).status).toBe(201);
    expect(dns.resolved).toContain("origin.shop.test");
  });

  it("takes a loopback origin in development, though never the product itself", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await put(apiKey, "shop.test", { ...edge, origin: "http://10.0.0.8" })).status).toBe(400);
    const local = testEnv({ PUBLIC_ORIGIN: "http://127.0.0.1:8787" });
    const itself = await put(apiKey, "shop.test", { ...edge, origin: "http://localhost:8787" }, local);
    expect(itself.status).toBe(400);
    expect((await put(apiKey, "shop.test", { ...edge, origin: "http://127.0.0.1:8080" }, local)).status).toBe(201);
  });

  it(`keeps an account to ${WEBSITES_PER_CUSTOMER.toLocaleString("en-US")} websites, and still lets it change them`, async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const now = new Date();
    const rows = Array.from({ length: WEBSITES_PER_CUSTOMER }, (_, i) => ({
      hostname: `site${i}.test`,
      userId: user.id,
      origin: "https://origin.test",
      mode: "snippet" as const,
      verificationToken: `token${i}`,
      createdAt: now,
      updatedAt: now,
    }));
    // 8 values a row (the status's default included): batches under D1's 100 bound parameters.
    for (let i = 0; i < rows.length; i += 12)
      await db()
        .insert(websites)
        .values(rows.slice(i, i + 12));
    const res = await put(apiKey, "one-more.test", edge);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "An account can have at most 1,000 websites" });
    expect((await put(apiKey, "site7.test", edge)).status).toBe(200);
    const page = await call("/api/websites?limit=2&offset=1", { apiKey });
    expect(page.headers.get("X-Total-Count")).toBe("1000");
    expect(((await page.json()) as Website[]).map((w) => w.hostname)).toEqual(["site1.test", "site10.test"]);
  });

  it("needs a customer's key", async () => {
    expect((await call("/api/websites")).status).toBe(401);
    expect((await call("/api/websites/shop.test", { method: "PUT", json: edge })).status).toBe(401);
    expect((await call("/api/websites/shop.test/verify", { method: "POST" })).status).toBe(401);
    expect((await call("/api/websites/shop.test", { method: "DELETE" })).status).toBe(401);
  });
});

describe("releasing a website: DELETE /api/websites/{hostname}", () => {
  it("releases a claim: an active website stops being served at once, and the hostname is free to prove", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const next = await createVerifiedCustomer("next@example.com");
    await proveWebsite(dns, owner.apiKey, "shop.test", edge);
    const res = await release(owner.apiKey, "shop.test");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "shop.test was released" });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"))).toBeNull();
    expect(await env.DELIVERY.get(edgeHostIndexKey(owner.user.id, "shop.test"))).toBeNull();
    expect((await storedState(owner.user.id))?.edgeHosts).toBeUndefined();
    expect(await (await call("/api/websites", { apiKey: owner.apiKey })).json()).toEqual([]);
    await proveWebsite(dns, next.apiKey, "shop.test", edge);
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({ userId: next.user.id });
  });

  it("answers 404 for a hostname the customer has not claimed, and leaves another account's claim alone", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    await proveWebsite(dns, owner.apiKey, "shop.test", edge);
    const res = await release(other.apiKey, "shop.test");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "shop.test is not one of your websites" });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({ userId: owner.user.id });
  });
});
