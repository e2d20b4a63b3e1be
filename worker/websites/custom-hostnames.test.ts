import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { customHostnameRemovals, websites } from "../db/schema";
import { runEveryMinute } from "../scheduled";
import { call, createAdmin, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { proveWebsite, standInDns } from "../test/websites";

const API = "https://cf.test/client/v4";
const withCloudflare = () =>
  testEnv({ CLOUDFLARE_ZONE_ID: "zone-1", CLOUDFLARE_API_TOKEN: "cf-token", CLOUDFLARE_API_BASE: API });
const edge = { origin: "https://origin.shop.test", mode: "edge" } as const;

/** Cloudflare's custom hostnames API for one zone: what it holds, and every call made to it. */
function standInCloudflare() {
  const hostnames = new Map<string, string>();
  const calls: string[] = [];
  const state = { down: false };
  const dns = standInDns(async (request) => {
    if (!request.url.startsWith(`${API}/zones/zone-1/custom_hostnames`)) return undefined;
    expect(request.headers.get("Authorization")).toBe("Bearer cf-token");
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.pathname.replace("/client/v4/zones/zone-1/custom_hostnames", "") || "/"}`);
    if (state.down)
      return Response.json({ success: false, errors: [{ code: 10000, message: "down" }] }, { status: 503 });
    if (request.method === "POST") {
      const { hostname } = (await request.json()) as { hostname: string };
      if ([...hostnames.values()].includes(hostname)) {
        return Response.json(
          { success: false, errors: [{ code: 1406, message: "Duplicate custom hostname found." }] },
          { status: 409 },
        );
      }
      const id = `ch-${hostnames.size + 1}`;
      hostnames.set(id, hostname);
      return Response.json({ success: true, errors: [], result: { id, hostname } });
    }
    if (request.method === "GET") {
      const wanted = url.searchParams.get("hostname");
      const found = [...hostnames].filter(([, h]) => h === wanted).map(([id, hostname]) => ({ id, hostname }));
      return Response.json({ success: true, errors: [], result: found });
    }
    if (request.method === "DELETE") {
      hostnames.delete(url.pathname.split("/").at(-1)!);
      return Response.json({ success: true, errors: [], result: {} });
    }
    return undefined;
  });
  return { hostnames, calls, state, dns };
}

afterEach(() => vi.restoreAllMocks());

describe("Cloudflare for SaaS custom hostnames", () => {
  it("registers a proven website and its www. twin, and deletes them when the claim is released", async () => {
    const cf = standInCloudflare();
    const e = withCloudflare();
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await call("/api/websites/shop.test", { method: "PUT", apiKey, json: edge }, e);
    expect(cf.calls).toEqual([]);
    await proveWebsite(cf.dns, apiKey, "shop.test", edge, e);
    expect([...cf.hostnames.values()]).toEqual(["shop.test", "www.shop.test"]);
    const [row] = await db().select().from(websites);
    expect(row!.customHostnameIds).toEqual(["ch-1", "ch-2"]);

    await call("/api/websites/shop.test", { method: "DELETE", apiKey }, e);
    expect(await db().select().from(customHostnameRemovals)).toHaveLength(2);
    await runEveryMinute(e);
    expect(cf.hostnames.size).toBe(0);
    expect(await db().select().from(customHostnameRemovals)).toEqual([]);
  });

  it("registers later when Cloudflare fails, and keeps a removal queued until Cloudflare takes it", async () => {
    const cf = standInCloudflare();
    const e = withCloudflare();
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    cf.state.down = true;
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    // The proof stands: the website is served; only its registration waits.
    expect(await proveWebsite(cf.dns, apiKey, "shop.test", edge, e)).toMatchObject({ status: "active" });
    expect(cf.hostnames.size).toBe(0);
    cf.state.down = false;
    await runEveryMinute(e);
    expect([...cf.hostnames.values()]).toEqual(["shop.test", "www.shop.test"]);

    // Deleting the customer queues their custom hostnames for deletion, which waits out an outage.
    const admin = await createAdmin();
    cf.state.down = true;
    expect((await call(`/api/admin/users/${user.id}`, { method: "DELETE", apiKey: admin.apiKey }, e)).status).toBe(200);
    await runEveryMinute(e);
    expect(await db().select().from(customHostnameRemovals)).toHaveLength(2);
    cf.state.down = false;
    await runEveryMinute(e);
    expect(cf.hostnames.size).toBe(0);
    expect(await db().select().from(customHostnameRemovals)).toEqual([]);
  });

  it("adopts a custom hostname the zone has already, and does nothing without the settings", async () => {
    const cf = standInCloudflare();
    cf.hostnames.set("ch-9", "shop.test");
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await proveWebsite(cf.dns, apiKey, "shop.test", edge, withCloudflare());
    const [row] = await db().select().from(websites);
    expect(row!.customHostnameIds).toEqual(["ch-9", "ch-2"]);

    const other = await createVerifiedCustomer("d@example.com");
    const calls = cf.calls.length;
    await proveWebsite(cf.dns, other.apiKey, "other.test", edge, testEnv());
    await runEveryMinute(testEnv());
    expect(cf.calls).toHaveLength(calls);
    expect(env.CLOUDFLARE_ZONE_ID ?? "").toBe("");
  });
});
