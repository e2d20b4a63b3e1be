import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Website } from "#contract/responses";
import { customHostnameRemovals, websites } from "../db/schema";
import { edgeHostKey } from "../delivery/keys";
import { runEveryMinute } from "../scheduled";
import { storedState } from "../test/delivery-store";
import { call, captureMails, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { proveWebsite, standInDns, type DnsStandIn } from "../test/websites";

const DAY = 24 * 60 * 60 * 1000;
const RECORD = "_dynamic-content.shop.test";
const edge = { origin: "https://origin.shop.test", mode: "edge" } as const;

let dns: DnsStandIn;
beforeEach(() => {
  dns = standInDns();
});
afterEach(() => vi.restoreAllMocks());

/** A customer's proven edge website shop.test, proven at `start`, with custom hostnames registered. */
async function provenShop(start: number) {
  const customer = await createVerifiedCustomer("owner@example.com");
  const website = await proveWebsite(dns, customer.apiKey, "shop.test", edge);
  await db()
    .update(websites)
    .set({ verifiedAt: new Date(start), checkedAt: new Date(start), customHostnameIds: ["cf-1", "cf-2"] });
  return { ...customer, website };
}

const claimOf = async (apiKey: string) =>
  (await call("/api/websites/shop.test", { apiKey })).json() as Promise<Website>;

describe("proofs are checked again every day", () => {
  it("tells the owner at the first failed check and ends the claim after three, as a release does", async () => {
    const start = Date.now();
    const { user, apiKey } = await provenShop(start);
    const mails = captureMails();

    // Within a day nothing is asked again.
    await runEveryMinute(testEnv(), new Date(start + DAY - 60_000));
    expect(dns.asked).toEqual([RECORD]);

    dns.records.delete(RECORD);
    await runEveryMinute(testEnv(), new Date(start + DAY + 1));
    expect(dns.asked).toEqual([RECORD, RECORD]);
    expect(await claimOf(apiKey)).toMatchObject({
      status: "active",
      checkProblem: `No TXT record found at ${RECORD} yet. DNS changes can take a few minutes to appear.`,
    });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toMatchObject({ userId: user.id });
    expect(mails.texts()).toHaveLength(1);
    const warned = mails.texts().join("\n");
    expect(warned).toContain("subject: Dynamic Content: the DNS record proving shop.test is missing");
    expect(warned).toContain("If 2 more daily checks fail, your claim of shop.test ends");

    await runEveryMinute(testEnv(), new Date(start + 2 * DAY + 2));
    expect(await claimOf(apiKey)).toMatchObject({ status: "active" });
    expect(mails.texts()).toHaveLength(1);

    await runEveryMinute(testEnv(), new Date(start + 3 * DAY + 3));
    expect(dns.asked).toHaveLength(4);
    expect((await call("/api/websites/shop.test", { apiKey })).status).toBe(404);
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"))).toBeNull();
    expect((await storedState(user.id))?.edgeHosts).toBeUndefined();
    expect((await call("https://shop.test/")).status).toBe(421);
    expect((await db().select().from(customHostnameRemovals)).map((r) => r.id).sort()).toEqual(["cf-1", "cf-2"]);
    expect(mails.texts().join("\n")).toContain("subject: Dynamic Content: your claim of shop.test ended");
  });

  it("counts a check the resolver could not answer for nothing, and a record back in place clears the failures", async () => {
    const start = Date.now();
    const { apiKey, website } = await provenShop(start);
    captureMails();
    dns.records.delete(RECORD);
    await runEveryMinute(testEnv(), new Date(start + DAY + 1));
    await runEveryMinute(testEnv(), new Date(start + 2 * DAY + 2));
    dns.down = true;
    await runEveryMinute(testEnv(), new Date(start + 3 * DAY + 3));
    expect(await claimOf(apiKey)).toMatchObject({ status: "active" });
    dns.down = false;
    dns.records.set(RECORD, [website.verification.value]);
    await runEveryMinute(testEnv(), new Date(start + 4 * DAY + 4));
    expect(await claimOf(apiKey)).toMatchObject({ status: "active", checkProblem: null, checkedAt: null });
    expect((await db().select().from(websites))[0]!.failedChecks).toBe(0);
    expect(dns.asked).toHaveLength(5);
  });
});
