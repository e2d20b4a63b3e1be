import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Mapping } from "../contract/responses";
import worker from "../index";
import { call, createVerifiedCustomer } from "../test/helpers";
import type { AnalyticsMessage } from "./message";

function message(userId: string, mappingId: number | null, url: string, id = crypto.randomUUID()): AnalyticsMessage {
  return {
    id,
    userId,
    url,
    mappingId,
    delivered: mappingId !== null,
    timestamp: Date.now(),
    userAgent: "ua",
    referer: null,
  };
}

async function consume(messages: AnalyticsMessage[]) {
  const batch = createMessageBatch<AnalyticsMessage>(
    "dynamic-content-analytics",
    messages.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

async function setup() {
  const { user, apiKey } = await createVerifiedCustomer("c@example.com");
  const res = await call("/api/mappings", {
    method: "POST",
    apiKey,
    json: { url: "https://shop.test/a", htmlContent: "A" },
  });
  return { user, apiKey, mapping: (await res.json()) as Mapping };
}

describe("analytics queue consumer", () => {
  it("writes raw rows and the counters the dashboards read, in one batch, and acks", async () => {
    const { user, apiKey, mapping } = await setup();
    const result = await consume([
      message(user.id, mapping.id, "https://shop.test/a"),
      message(user.id, mapping.id, "http://www.shop.test/a/"),
      message(user.id, null, "https://shop.test/b"),
    ]);
    expect(result.explicitAcks).toHaveLength(0);
    expect(result.ackAll).toBe(true);
    expect(await env.DB.prepare("select count(*) as n from analytics").first("n")).toBe(3);

    const [listed] = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(listed).toMatchObject({ totalRequests: 2, contentDeliveryCount: 2 });
    const stats = await (await call("/api/user/stats", { apiKey })).json();
    expect(stats).toEqual({ totalRequests: 3, requestLimit: null, lastMonthRequests: 3 });
    const rows = (await (await call("/api/analytics?sortBy=url&sortDirection=asc", { apiKey })).json()) as {
      url: string;
      totalHits: number;
    }[];
    expect(rows.map((r) => [r.url, r.totalHits])).toEqual([
      ["shop.test/a", 2],
      ["shop.test/b", 1],
    ]);
  });

  it("counts a redelivered message once", async () => {
    const { user, apiKey, mapping } = await setup();
    const m = message(user.id, mapping.id, "https://shop.test/a");
    await consume([m]);
    await consume([m, message(user.id, mapping.id, "https://shop.test/a")]);
    await consume([m]);
    expect(await env.DB.prepare("select count(*) as n from analytics").first("n")).toBe(2);
    const stats = (await (await call("/api/user/stats", { apiKey })).json()) as { totalRequests: number };
    expect(stats.totalRequests).toBe(2);
    const [listed] = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(listed!.contentDeliveryCount).toBe(2);
  });

  it("drops messages of users that no longer exist instead of failing the batch", async () => {
    const { user, mapping } = await setup();
    const result = await consume([
      message("gone", null, "https://x.test/"),
      message(user.id, mapping.id, "https://shop.test/a"),
    ]);
    expect(result.ackAll).toBe(true);
    expect(await env.DB.prepare("select count(*) as n from analytics").first("n")).toBe(1);
  });

  it("filters analytics by search term", async () => {
    const { user, apiKey, mapping } = await setup();
    await consume([
      message(user.id, mapping.id, "https://shop.test/a"),
      message(user.id, null, "https://shop.test/zzz"),
    ]);
    const rows = (await (await call("/api/analytics?searchTerm=ZZ", { apiKey })).json()) as { url: string }[];
    expect(rows.map((r) => r.url)).toEqual(["shop.test/zzz"]);
  });
});
