import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Website } from "#contract/responses";
import { edgeHostIndexKey, edgeHostKey } from "../delivery/keys";
import { customHostnameRemovals, websites } from "../db/schema";
import { runDaily, runEveryMinute } from "../scheduled";
import { standInDns, proveWebsite, type DnsStandIn } from "../test/websites";
import { storedState } from "../test/delivery-store";
import { call, captureMails, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { proveWebsite as proveClaim } from "../websites/prove-website";
import { WEBSITES_PER_CUSTOMER } from "./websites";

const put = (apiKey: string, hostname: string, json: unknown, e = testEnv()) =>
  call(`/api/websites/${hostname}`, { method: "PUT", apiKey, json }, e);
const verify = (apiKey: string, hostname: string) =>
  call(`/api/websites/${hostname}/verify`, { method: "POST", apiKey });
const release = (apiKey: string, hostname: string) => call(`/api/websites/${hostname}`, { method: "DELETE", apiKey });

const edge = { origin: "https://origin.shop.test", mode: "edge" } as const;
const snippet = { origin: "https://origin.shop.test", mode: "snippet" } as const;
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

  it("lets anyone claim a hostname another account has claimed, and only a proof counts", async () => {
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

    // The squatter may keep a pending claim, but only whoever runs the DNS can make it prove anything.
    const again = await put(squatter.apiKey, "bigshop.test", { ...edge, origin: "https://evil.test" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "pending" });
    dns.records.set("_dynamic-content.bigshop.test", [claim.verification.value, "anything"]);
    expect(await (await verify(squatter.apiKey, "bigshop.test")).json()).toMatchObject({
      status: "pending",
      checkProblem: "The TXT record at _dynamic-content.bigshop.test does not hold this claim's value.",
    });
    expect(await env.DELIVERY.get(edgeHostKey("bigshop.test"), "json")).toMatchObject({ userId: owner.user.id });
  });

  it("moves a proven hostname to another account once its DNS holds their value, and mails the previous holder", async () => {
    const previous = await createVerifiedCustomer("agency@example.com");
    const owner = await createVerifiedCustomer("owner@example.com");
    await proveWebsite(dns, previous.apiKey, "shop.test", { ...edge, origin: "https://old.shop.test" });
    await db()
      .update(websites)
      .set({ customHostnameIds: ["cf-1", "cf-2"] });

    // Another account's claim of an active hostname is an ordinary pending claim with a value of its own.
    const claimed = await put(owner.apiKey, "shop.test", edge);
    expect(claimed.status).toBe(201);
    const claim = (await claimed.json()) as Website;
    expect(claim).toMatchObject({ hostname: "shop.test", status: "pending" });
    expect(claim.verification.value).not.toBe(dns.records.get("_dynamic-content.shop.test")![0]);
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({ userId: previous.user.id });

    const mails = captureMails();
    dns.records.set("_dynamic-content.shop.test", [claim.verification.value]);
    const proven = await verify(owner.apiKey, "shop.test");
    expect(proven.status).toBe(200);
    expect(await proven.json()).toMatchObject({ status: "active", origin: "https://origin.shop.test" });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toEqual({
      userId: owner.user.id,
      origin: "https://origin.shop.test",
    });
    expect(await env.DELIVERY.get(edgeHostIndexKey(previous.user.id, "shop.test"))).toBeNull();
    expect((await storedState(previous.user.id))?.edgeHosts).toBeUndefined();
    expect((await storedState(owner.user.id))?.edgeHosts).toEqual(["shop.test"]);
    expect((await call("/api/websites/shop.test", { apiKey: previous.apiKey })).status).toBe(404);
    const rows = await db().select().from(websites);
    expect(rows.map((w) => [w.userId, w.status])).toEqual([[owner.user.id, "active"]]);
    // The previous holder's custom hostnames are queued for removal, as a release queues them.
    expect((await db().select().from(customHostnameRemovals)).map((r) => r.id).sort()).toEqual(["cf-1", "cf-2"]);
    const mail = mails.texts().join("\n");
    expect(mail).toContain("to agency@example.com");
    expect(mail).toContain("subject: Dynamic Content: shop.test moved to another account");
    // The new holder hears only that their claim is proven.
    const toOwner = mails.texts().filter((text) => text.includes("to owner@example.com"));
    expect(toOwner).toHaveLength(1);
    expect(toOwner[0]).toContain("subject: Dynamic Content: shop.test is proven");
  });

  it("keeps at most one active claim per hostname even when two are proven at once", async () => {
    const a = await createVerifiedCustomer("a@example.com");
    const b = await createVerifiedCustomer("b@example.com");
    const claimA = (await (await put(a.apiKey, "shop.test", edge)).json()) as Website;
    const claimB = (await (await put(b.apiKey, "shop.test", edge)).json()) as Website;
    dns.records.set("_dynamic-content.shop.test", [claimA.verification.value, claimB.verification.value]);
    // Either one proof wins and the other is refused, or the later one takes the hostname over: one holder.
    const answers = await Promise.all([verify(a.apiKey, "shop.test"), verify(b.apiKey, "shop.test")]);
    expect(answers.map((r) => r.status)).toContain(200);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const active = await db().query.websites.findMany({ where: (w, { eq }) => eq(w.status, "active") });
    expect(active).toHaveLength(1);
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({ userId: active[0]!.userId });
  });

  it("keeps one holder when two accounts take a proven hostname over at once", async () => {
    const holder = await createVerifiedCustomer("holder@example.com");
    await proveWebsite(dns, holder.apiKey, "shop.test", edge);
    const a = await createVerifiedCustomer("a@example.com");
    const b = await createVerifiedCustomer("b@example.com");
    const claimA = (await (await put(a.apiKey, "shop.test", edge)).json()) as Website;
    const claimB = (await (await put(b.apiKey, "shop.test", edge)).json()) as Website;
    captureMails();
    dns.records.set("_dynamic-content.shop.test", [claimA.verification.value, claimB.verification.value]);
    const answers = await Promise.all([verify(a.apiKey, "shop.test"), verify(b.apiKey, "shop.test")]);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const active = await db().query.websites.findMany({ where: (w, { eq }) => eq(w.status, "active") });
    expect(active).toHaveLength(1);
    expect(active[0]!.userId).not.toBe(holder.user.id);
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({ userId: active[0]!.userId });
  });

  it("answers the proof, not a conflict, when the minute cron proved the same claim meanwhile", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const claim = (await (await put(apiKey, "shop.test", edge)).json()) as Website;
    const readBeforeTheCron = await db().query.websites.findFirst({ where: (w, { eq }) => eq(w.userId, user.id) });
    dns.records.set("_dynamic-content.shop.test", [claim.verification.value]);
    await runEveryMinute(testEnv());
    const proof = await proveClaim(testEnv(), readBeforeTheCron!);
    expect(proof).toMatchObject({ outcome: "active", website: { userId: user.id, status: "active" }, delivered: true });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({ userId: user.id });
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

  it("shares the minute cron's DNS checks between accounts: one account's many claims hold back no other's", async () => {
    const heavy = await createVerifiedCustomer("heavy@example.com");
    const light = await createVerifiedCustomer("light@example.com");
    // Claims made before the cap on unproven claims: more than one run checks.
    const old = new Date(Date.now() - DAY);
    for (let i = 0; i < 40; i += 10) {
      await db()
        .insert(websites)
        .values(
          Array.from({ length: 10 }, (_, j) => ({
            hostname: `heavy${i + j}.test`,
            userId: heavy.user.id,
            origin: "https://origin.test",
            mode: "snippet" as const,
            verificationToken: `token${i + j}`,
            createdAt: old,
            updatedAt: old,
          })),
        );
    }
    await put(light.apiKey, "light.test", edge);
    await runEveryMinute(testEnv());
    expect(dns.asked).toHaveLength(25);
    expect(dns.asked).toContain("_dynamic-content.light.test");
  });

  it("keeps an account to 20 unproven claims at a time, and still lets it change them", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    for (let i = 0; i < 20; i++) expect((await put(apiKey, `site${i}.test`, snippet)).status).toBe(201);
    const refused = await put(apiKey, "one-more.test", snippet);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: "An account can have at most 20 unproven websites at a time: prove or remove one first",
    });
    expect((await put(apiKey, "site3.test", { ...snippet, origin: "https://other.test" })).status).toBe(200);
    expect((await release(apiKey, "site3.test")).status).toBe(200);
    expect((await put(apiKey, "one-more.test", snippet)).status).toBe(201);
  });

  it("keeps proxied websites to the plan's websites limit: an edge claim past it is refused", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await proveWebsite(dns, apiKey, "shop.test", edge);
    const refused = await put(apiKey, "other.test", edge);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Your plan allows 1 website. Upgrade your plan to add other.test." });
    // A snippet website is not proxied, and cannot turn into an edge one past the limit either.
    expect((await put(apiKey, "other.test", snippet)).status).toBe(201);
    expect((await put(apiKey, "other.test", edge)).status).toBe(403);
    // The edge website itself may change.
    expect((await put(apiKey, "shop.test", { ...edge, origin: "https://new.shop.test" })).status).toBe(200);
    expect((await put(apiKey, "shop.test", snippet)).status).toBe(200);
    expect((await put(apiKey, "other.test", edge)).status).toBe(200);
  });

  it.each(["co.uk", "github.io", "appspot.com", "www.co.uk"])("refuses the public suffix %s", async (hostname) => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await put(apiKey, hostname, edge);
    expect(res.status).toBe(400);
    const suffix = hostname.replace(/^www\./, "");
    expect(await res.json()).toEqual({
      error: `${suffix} is a public suffix, under which anyone can register a domain: claim your own domain`,
    });
    expect(await db().select().from(websites)).toEqual([]);
  });

  it("strips every leading www., as routing does", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const created = await put(apiKey, "www.WWW.shop.test", edge);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ hostname: "shop.test" });
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
      status: "active" as const,
      verificationToken: `token${i}`,
      createdAt: now,
      updatedAt: now,
    }));
    // 9 values a row (the failed checks' default included): batches under D1's 100 bound parameters.
    for (let i = 0; i < rows.length; i += 11)
      await db()
        .insert(websites)
        .values(rows.slice(i, i + 11));
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

describe('an edge website\'s asset origin (docs/edge-delivery.md, "Assets from another host")', () => {
  const CDN = "https://cdn.shop.example";
  const get = async (apiKey: string) => (await call("/api/websites/shop.test", { apiKey })).json() as Promise<Website>;

  it("is off for a new claim, set and kept by a PUT without it, served from the host entry, and turned off by null", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const claimed = await proveWebsite(dns, apiKey, "shop.test", edge);
    expect(claimed.assetOrigin).toBeNull();
    const before = await env.DELIVERY.get(edgeHostKey("shop.test"));
    expect(JSON.parse(before!)).toEqual({ userId: user.id, origin: edge.origin });

    const on = await put(apiKey, "shop.test", { ...edge, assetOrigin: `${CDN}/` });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ status: "active", assetOrigin: CDN });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toEqual({
      userId: user.id,
      origin: edge.origin,
      assetOrigin: CDN,
    });

    // A client that knows nothing of the field changes the origin and keeps the setting.
    const moved = await put(apiKey, "shop.test", { ...edge, origin: "https://origin2.shop.test" });
    expect(await moved.json()).toMatchObject({ origin: "https://origin2.shop.test", assetOrigin: CDN });

    const off = await put(apiKey, "shop.test", { ...edge, assetOrigin: null });
    expect(await off.json()).toMatchObject({ assetOrigin: null });
    expect(await get(apiKey)).toMatchObject({ assetOrigin: null });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"))).toBe(before);
  });

  it("refuses with 400 what is not an https public host of the customer's own, and changes nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const production = testEnv({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "https://app.dynamic-content.test" });
    dns.addresses.set("origin.shop.test", ["93.184.216.34"]);
    expect((await put(apiKey, "shop.test", { ...edge, assetOrigin: CDN }, production)).status).toBe(201);
    for (const [assetOrigin, error] of [
      ["http://cdn.shop.example", "Asset origin must start with https://"],
      [
        "https://www.shop.test",
        "Asset origin must be another host than the website's own, whose requests run through Dynamic Content",
      ],
      [
        "https://shop.test:8443",
        "Asset origin must be another host than the website's own, whose requests run through Dynamic Content",
      ],
      [
        "https://static.dynamic-content.test",
        "Asset origin must be a host that serves your website's files, not Dynamic Content",
      ],
      [
        "https://10.0.0.8",
        "Asset origin must be a public hostname such as https://cdn.shop.example, not an IP address or a local name",
      ],
      [
        "https://cdn.shop.example/assets",
        "Asset origin must be a scheme, host and port only, without a path, query or credentials",
      ],
      ["cdn.shop.example", "Asset origin must be a URL such as https://cdn.shop.example"],
    ] as const) {
      const res = await put(apiKey, "shop.test", { ...edge, assetOrigin }, production);
      expect(res.status, assetOrigin).toBe(400);
      expect(await res.json(), assetOrigin).toEqual({ error });
    }
    expect(await get(apiKey)).toMatchObject({ assetOrigin: CDN });
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
