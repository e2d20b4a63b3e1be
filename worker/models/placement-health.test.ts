import { describe, expect, it } from "vitest";
import type { PlacementHealth } from "#contract/placement";
import type { AnalyticsMessage, PageViewEvent } from "../messages/analytics";
import { call, countViews, createVerifiedCustomer, db } from "../test/helpers";
import { provenWebsite } from "../test/websites";
import { placementHealth } from "../db/schema";
import { placementMissesOf, purgePlacementHealth } from "./placement-health";

const DAY_MS = 86_400_000;

/** A customer whose `host` counts views, with one mapping placed `inside` `#slot`. */
async function placedMapping(host = "shop.test") {
  const customer = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
  await provenWebsite(customer.user.id, host, { origin: "https://origin.shop.test", mode: "snippet" });
  const res = await call("/api/mappings", {
    method: "POST",
    apiKey: customer.apiKey,
    json: {
      url: "https://shop.test/offer",
      htmlContent: "<p>Sale</p>",
      placement: { position: "inside", selector: "#slot" },
    },
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: number };
  return { ...customer, id };
}

const view = (userId: string, mappingId: number, timestamp: number): PageViewEvent => ({
  id: crypto.randomUUID(),
  userId,
  url: "https://shop.test/offer",
  mappingId,
  delivered: true,
  timestamp,
  userAgent: null,
  referer: null,
  visitor: null,
});

const health = async (apiKey: string, id: number) => {
  const res = await call(`/api/mappings/${id}/placement-health`, { apiKey });
  expect(res.status).toBe(200);
  return (await res.json()) as PlacementHealth;
};

describe("selector health", () => {
  it("answers a mapping's views and the misses its page views reported, and the last miss", async () => {
    const { user, apiKey, id } = await placedMapping();
    expect(await health(apiKey, id)).toEqual({ views: 0, misses: 0, lastMissAt: null });
    const now = Date.now();
    const message: AnalyticsMessage = {
      views: [view(user.id, id, now - 2000), view(user.id, id, now - 1000), view(user.id, id, now)],
      misses: [
        { userId: user.id, mappingId: id, timestamp: now - 1000 },
        { userId: user.id, mappingId: id, timestamp: now },
      ],
    };
    await countViews([message]);
    expect(await health(apiKey, id)).toEqual({ views: 3, misses: 2, lastMissAt: now });
    expect(await placementMissesOf(db(), [id])).toEqual(new Map([[id, 2]]));
  });

  it("marks the list's rows whose selector missed, and only those", async () => {
    const { user, apiKey, id } = await placedMapping();
    const other = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/other", htmlContent: "<p>Other</p>" },
    });
    const otherId = ((await other.json()) as { id: number }).id;
    await countViews([{ views: [], misses: [{ userId: user.id, mappingId: id, timestamp: Date.now() }] }]);
    const rows = (await (await call("/api/mappings?limit=10", { apiKey })).json()) as Record<string, unknown>[];
    expect(rows.find((r) => r.id === id)).toMatchObject({ placementMisses: 1 });
    expect(rows.find((r) => r.id === otherId)).not.toHaveProperty("placementMisses");
  });

  it("drops a miss reported for another customer's mapping", async () => {
    const owner = await placedMapping();
    const stranger = await placedMapping("stranger.test");
    await countViews([
      { views: [], misses: [{ userId: stranger.user.id, mappingId: owner.id, timestamp: Date.now() }] },
    ]);
    expect((await health(owner.apiKey, owner.id)).misses).toBe(0);
  });

  it("purges the days before the last 7 and keeps those within them", async () => {
    const { id } = await placedMapping();
    const now = new Date();
    const day = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
    await db()
      .insert(placementHealth)
      .values([
        { mappingId: id, day: day(7), views: 5, misses: 5 },
        { mappingId: id, day: day(6), views: 4, misses: 1 },
      ]);
    expect(await purgePlacementHealth(db(), now)).toBeGreaterThanOrEqual(1);
    expect(await placementMissesOf(db(), [id], now.getTime())).toEqual(new Map([[id, 1]]));
    const left = await db().select().from(placementHealth);
    expect(left.filter((r) => r.mappingId === id).map((r) => r.day)).toEqual([day(6)]);
  });
});
