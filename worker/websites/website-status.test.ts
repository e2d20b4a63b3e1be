import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Website, WebsiteStatus } from "#contract/responses";
import { websites } from "../db/schema";
import { runEveryMinute } from "../scheduled";
import { call, captureMails, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { proveWebsite, standInDns, type DnsStandIn } from "../test/websites";

const edge = { origin: "https://origin.shop.test", mode: "edge" } as const;
const OURS = "203.0.113.7";
const CF_API = "https://cf.test/client/v4";

const status = async (apiKey: string, hostname = "shop.test", e = testEnv()) => {
  const res = await call(`/api/websites/${hostname}/status`, { apiKey }, e);
  expect(res.status).toBe(200);
  return (await res.json()) as WebsiteStatus;
};

let dns: DnsStandIn;
/** Cloudflare's certificate status of each custom hostname the stand-in registered. */
let sslStatus: string;
beforeEach(() => {
  sslStatus = "pending_validation";
  let registered = 0;
  dns = standInDns(async (request) => {
    if (!request.url.startsWith(`${CF_API}/zones/zone-1/custom_hostnames`)) return undefined;
    if (request.method === "POST") {
      const { hostname } = (await request.json()) as { hostname: string };
      registered += 1;
      return Response.json({ success: true, errors: [], result: { id: `ch-${registered}`, hostname } });
    }
    const id = new URL(request.url).pathname.split("/").at(-1);
    return Response.json({
      success: true,
      errors: [],
      result: { id, hostname: "shop.test", ssl: { status: sslStatus } },
    });
  });
  // PUBLIC_ORIGIN in the tests is http://dc.test: where edge traffic must arrive.
  dns.addresses.set("dc.test", [OURS]);
});
afterEach(() => vi.restoreAllMocks());

describe("an edge website's status: GET /api/websites/{hostname}/status", () => {
  it("shows each step waiting on a new claim, with the TXT record to add, and the certificate left to Cloudflare", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const claim = (await (
      await call("/api/websites/shop.test", { method: "PUT", apiKey, json: edge })
    ).json()) as Website;
    expect(await status(apiKey)).toEqual({
      hostname: "shop.test",
      ready: false,
      dns: { state: "waiting", addresses: [] },
      ownership: { state: "waiting", record: claim.verification, problem: null },
      certificate: { state: "managed", sslStatus: null },
    });
  });

  it("is ready once the hostname is proven and resolves to our addresses, through the one DNS resolver", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await proveWebsite(dns, apiKey, "shop.test", edge);
    dns.addresses.set("shop.test", ["198.51.100.1"]);
    expect(await status(apiKey)).toMatchObject({
      ready: false,
      dns: { state: "waiting", addresses: ["198.51.100.1"] },
      ownership: { state: "done" },
    });
    dns.addresses.set("shop.test", [OURS, "2001:db8::7"]);
    expect(await status(apiKey)).toMatchObject({
      ready: true,
      dns: { state: "done", addresses: [OURS, "2001:db8::7"] },
      ownership: { state: "done", problem: null },
      certificate: { state: "managed" },
    });
    expect(dns.resolved).toContain("shop.test");
    dns.down = true;
    expect(await status(apiKey)).toMatchObject({ ready: false, dns: { state: "unknown", addresses: [] } });
  });

  it("compares with PUBLIC_ORIGIN's address itself when it is an IP address, as under npm start", async () => {
    const e = testEnv({ PUBLIC_ORIGIN: "http://127.0.0.1:8787" });
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await proveWebsite(dns, apiKey, "shop.test", edge, e);
    dns.addresses.set("shop.test", ["127.0.0.1"]);
    expect((await status(apiKey, "shop.test", e)).dns).toEqual({ state: "done", addresses: ["127.0.0.1"] });
    expect(dns.resolved).not.toContain("127.0.0.1");
  });

  it("shows ownership failing while the daily check no longer finds the record", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await proveWebsite(dns, apiKey, "shop.test", edge);
    await db().update(websites).set({ checkProblem: "No TXT record found", failedChecks: 1 });
    expect((await status(apiKey)).ownership).toMatchObject({ state: "failed", problem: "No TXT record found" });
  });

  it("answers Cloudflare for SaaS's certificate status where it is configured", async () => {
    const e = testEnv({ CLOUDFLARE_ZONE_ID: "zone-1", CLOUDFLARE_API_TOKEN: "cf-token", CLOUDFLARE_API_BASE: CF_API });
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await call("/api/websites/shop.test", { method: "PUT", apiKey, json: edge }, e);
    expect((await status(apiKey, "shop.test", e)).certificate).toEqual({ state: "waiting", sslStatus: null });
    await proveWebsite(dns, apiKey, "shop.test", edge, e);
    dns.addresses.set("shop.test", [OURS]);
    expect(await status(apiKey, "shop.test", e)).toMatchObject({
      ready: false,
      certificate: { state: "waiting", sslStatus: "pending_validation" },
    });
    sslStatus = "validation_timed_out";
    expect((await status(apiKey, "shop.test", e)).certificate).toEqual({
      state: "failed",
      sslStatus: "validation_timed_out",
    });
    sslStatus = "active";
    expect(await status(apiKey, "shop.test", e)).toMatchObject({
      ready: true,
      certificate: { state: "done", sslStatus: "active" },
    });
  });

  it("has only the ownership step for a snippet website, and answers 404 for another account's", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    await proveWebsite(dns, apiKey, "shop.test", { ...edge, mode: "snippet" });
    expect(await status(apiKey)).toMatchObject({ ready: true, dns: null, certificate: null });
    const refused = await call("/api/websites/shop.test/status", { apiKey: other.apiKey });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: "shop.test is not one of your websites" });
  });
});

describe("the owner's mail when a website becomes active", () => {
  it("is sent once, by the check that proved it, never again by later checks or the minute cron", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const mails = captureMails();
    const start = Date.now();
    await proveWebsite(dns, apiKey, "shop.test", edge);
    await call("/api/websites/shop.test/verify", { method: "POST", apiKey });
    await runEveryMinute(testEnv(), new Date(start + 10 * 60_000));
    const proven = mails.texts().filter((text) => text.includes("is proven"));
    expect(proven).toHaveLength(1);
    expect(proven[0]).toContain("to c@example.com");
    expect(proven[0]).toContain("Dynamic Content serves shop.test from now on");
  });

  it("is sent when the minute cron proves a pending claim", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const claim = (await (
      await call("/api/websites/shop.test", { method: "PUT", apiKey, json: edge })
    ).json()) as Website;
    const mails = captureMails();
    dns.records.set(claim.verification.name, [claim.verification.value]);
    await runEveryMinute(testEnv(), new Date(Date.now() + 60_000));
    expect(mails.texts().filter((text) => text.includes("subject: Dynamic Content: shop.test is proven"))).toHaveLength(
      1,
    );
  });
});
