/**
 * What strangers cannot do (docs/analytics.md): spend more than a share of a customer's quota (at most 500) a day
 * from one address, make crawlers count against the plan, or fill D1 with per-URL rows of made-up URLs.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CustomerDashboard } from "#contract/responses";
import { OTHER_PAGES } from "#contract/responses";
import { call, countViews, createCustomerOnPlan } from "../test/helpers";
import type { AnalyticsMessage } from "../messages/analytics";
import { UNMAPPED_URL_MAX_LENGTH, UNMAPPED_URLS_PER_DAY } from "./count";
import type { AnalyticsReducer } from "./reducer";
import { reducerOf, reducerShardOf } from "./reducer-shards";
import { VISITOR_DAILY_QUOTA, visitorDailyQuota, type VisitorCounts } from "./reducer-visitors";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

function view(userId: string, url: string, visitor: string | null, delivered = true, userAgent = BROWSER) {
  return {
    id: crypto.randomUUID(),
    userId,
    url,
    mappingId: delivered ? 1 : null,
    delivered,
    timestamp: Date.now(),
    userAgent,
    referer: null,
    visitor,
  } satisfies AnalyticsMessage;
}

const consume = (messages: AnalyticsMessage[]) => countViews(messages);

const counters = (userId: string) =>
  env.DB.prepare("select * from usage_counters where user_id = ?").bind(userId).first<Record<string, number>>();

async function customerWithPage(plan: { dynamicContentLimit: number | null }) {
  const customer = await createCustomerOnPlan(plan);
  const res = await call("/api/mappings", {
    method: "POST",
    apiKey: customer.apiKey,
    json: { url: "https://shop.test/offer", htmlContent: "<p>Sale</p>" },
  });
  expect(res.status).toBe(201);
  return customer;
}

describe("what a visitor can spend of a customer's plan", () => {
  it(`bills one visitor's first ${VISITOR_DAILY_QUOTA} views a day, and counts the rest apart`, async () => {
    const { user, apiKey } = await customerWithPage({ dynamicContentLimit: 100_000 });
    const one = Array.from({ length: VISITOR_DAILY_QUOTA + 120 }, () => view(user.id, "https://shop.test/offer", "v1"));
    const other = Array.from({ length: 30 }, () => view(user.id, "https://shop.test/offer", "v2"));
    await consume([...one, ...other]);
    expect(await counters(user.id)).toMatchObject({
      total_requests: VISITOR_DAILY_QUOTA + 150,
      period_requests: VISITOR_DAILY_QUOTA + 30,
      period_deliveries: VISITOR_DAILY_QUOTA + 30,
      period_unbilled_requests: 120,
      period_unbilled_deliveries: 120,
    });
    // Counted in the analytics all the same.
    const rows = (await (await call("/api/analytics", { apiKey })).json()) as { url: string; totalHits: number }[];
    expect(rows).toEqual([expect.objectContaining({ url: "shop.test/offer", totalHits: VISITOR_DAILY_QUOTA + 150 })]);
    const dashboard = (await (await call("/api/user/dashboard", { apiKey })).json()) as CustomerDashboard;
    expect(dashboard.usage).toMatchObject({
      contentGenerations: VISITOR_DAILY_QUOTA + 30,
      notBilled: { requests: 120, contentGenerations: 120 },
    });
  });

  it("holds a visitor to the share across batches and redeliveries, day by day", async () => {
    const { user } = await customerWithPage({ dynamicContentLimit: 100_000 });
    const first = Array.from({ length: VISITOR_DAILY_QUOTA - 10 }, () =>
      view(user.id, "https://shop.test/offer", "v1"),
    );
    await consume(first);
    const next = Array.from({ length: 30 }, () => view(user.id, "https://shop.test/offer", "v1"));
    await consume(next);
    await consume(next.slice(0, 10));
    expect(await counters(user.id)).toMatchObject({
      period_deliveries: VISITOR_DAILY_QUOTA,
      period_unbilled_deliveries: 20,
    });

    // Another day is another share.
    const yesterday = Date.now() - 86_400_000;
    await consume(
      Array.from({ length: 30 }, () => ({ ...view(user.id, "https://shop.test/offer", "v1"), timestamp: yesterday })),
    );
    expect(await counters(user.id)).toMatchObject({
      period_deliveries: VISITOR_DAILY_QUOTA + 30,
      period_unbilled_deliveries: 20,
    });
  });

  it("gives each address only a share of a Free quota: one address spends 20 of 1,000, fifty are needed for all", async () => {
    const { user } = await customerWithPage({ dynamicContentLimit: 1_000 });
    const share = visitorDailyQuota(1_000);
    expect(share).toBe(20);
    // One address asks 300 times: 20 billed, the rest counted apart.
    await consume(Array.from({ length: 300 }, () => view(user.id, "https://shop.test/offer", "one-address")));
    expect(await counters(user.id)).toMatchObject({
      total_requests: 300,
      period_deliveries: share,
      period_unbilled_deliveries: 300 - share,
    });
    // 49 more addresses, 30 views each: the quota is spent only once fifty addresses have spent their share.
    const crowd = Array.from({ length: 49 }, (_, a) =>
      Array.from({ length: 30 }, () => view(user.id, "https://shop.test/offer", `address-${a}`)),
    );
    await consume(crowd.slice(0, 48).flat());
    expect((await counters(user.id))!.period_deliveries).toBe(share * 49);
    await consume(crowd[48]!);
    expect((await counters(user.id))!.period_deliveries).toBe(1_000);
  });

  it("never bills known crawlers, and counts them apart", async () => {
    const { user } = await customerWithPage({ dynamicContentLimit: 100_000 });
    await consume([
      view(user.id, "https://shop.test/offer", "bot", true, GOOGLEBOT),
      view(user.id, "https://shop.test/offer", "bot", true, GOOGLEBOT),
      view(user.id, "https://shop.test/offer", "v1"),
    ]);
    expect(await counters(user.id)).toMatchObject({
      total_requests: 3,
      period_deliveries: 1,
      period_unbilled_requests: 2,
      period_unbilled_deliveries: 2,
    });
    // The day is the customer's newest: on their counters row.
    const day = await env.DB.prepare("select latest_day_crawler_requests as n from usage_counters where user_id = ?")
      .bind(user.id)
      .first("n");
    expect(day).toBe(2);
  });

  it("keeps no visitor counts for a customer whose plan limits nothing: there is nothing to spend", async () => {
    const { user } = await customerWithPage({ dynamicContentLimit: null });
    await consume(
      Array.from({ length: VISITOR_DAILY_QUOTA + 5 }, () => view(user.id, "https://shop.test/offer", "v1")),
    );
    expect(await counters(user.id)).toMatchObject({
      period_deliveries: VISITOR_DAILY_QUOTA + 5,
      period_unbilled_requests: 0,
    });
    const shard = reducerShardOf(env, user.id);
    const visitors = await runInDurableObject(
      reducerOf(env, shard),
      (reducer: AnalyticsReducer) => (reducer as unknown as { visitors: VisitorCounts }).visitors.size,
    );
    expect(visitors).toBe(0);
  });
});

describe("per-URL rows", () => {
  it(`keeps mapped pages one by one, and at most ${UNMAPPED_URLS_PER_DAY.toLocaleString("en-US")} new unmapped URLs a day; the rest in one row`, async () => {
    const { user, apiKey } = await customerWithPage({ dynamicContentLimit: null });
    // The day's allowance almost spent: as if 9,990 other new URLs had come before (the newest day is on the
    // customer's counters row).
    const day = new Date().toISOString().slice(0, 10);
    await env.DB.prepare(
      `insert into usage_counters (user_id, latest_day, latest_day_requests, latest_day_unmapped_urls)
       values (?1, ?2, 9990, ?3)
       on conflict (user_id) do update set latest_day = ?2, latest_day_requests = 9990, latest_day_unmapped_urls = ?3`,
    )
      .bind(user.id, day, UNMAPPED_URLS_PER_DAY - 10)
      .run();
    const junk = Array.from({ length: 25 }, (_, i) => view(user.id, `https://shop.test/junk/${i}`, null, false));
    await consume([...junk, view(user.id, "https://shop.test/offer", null)]);
    // The day's point of each URL's series: its row of the day, and the newest day kept on its all-time row.
    const rowsOf = async () =>
      (
        await env.DB.prepare(
          `select url, sum(requests) as requests from (
             select url, requests from url_daily_usage where user_id = ?1 and day = ?2
             union all select url, latest_day_requests from url_stats where user_id = ?1 and latest_day = ?2)
           group by url order by url`,
        )
          .bind(user.id, day)
          .all<{ url: string; requests: number }>()
      ).results;
    const first = await rowsOf();
    // The day's last 10 new URLs (in the order of the URL), the mapped page, and the rest summed.
    expect(first.filter((r) => r.url.startsWith("shop.test/junk/")).map((r) => r.url)).toEqual(
      ["0", "1", "10", "11", "12", "13", "14", "15", "16", "17"].map((n) => `shop.test/junk/${n}`),
    );
    expect(first).toContainEqual({ url: OTHER_PAGES, requests: 15 });
    expect(first).toContainEqual({ url: "shop.test/offer", requests: 1 });

    // A URL with a row today keeps it; a new one goes to the sum; so does the all-time list.
    await consume([
      view(user.id, "https://shop.test/junk/0", null, false),
      view(user.id, "https://shop.test/junk/99", null, false),
    ]);
    const second = await rowsOf();
    expect(second).toContainEqual({ url: "shop.test/junk/0", requests: 2 });
    expect(second).toContainEqual({ url: OTHER_PAGES, requests: 16 });
    expect(second).toHaveLength(12);
    const rows = (await (await call("/api/analytics", { apiKey })).json()) as { url: string; totalHits: number }[];
    expect(rows.find((r) => r.url === OTHER_PAGES)?.totalHits).toBe(16);
    expect(rows).toHaveLength(12);
  });

  it("spends the day's allowance once per new URL, however often it is seen, and never on mapped pages", async () => {
    const { user } = await customerWithPage({ dynamicContentLimit: null });
    await consume([
      view(user.id, "https://shop.test/a", null, false),
      view(user.id, "https://shop.test/a", null, false),
      view(user.id, "https://shop.test/b", null, false),
      view(user.id, "https://shop.test/offer", null),
    ]);
    await consume([
      view(user.id, "https://shop.test/a", null, false),
      view(user.id, "https://shop.test/c", null, false),
    ]);
    const day = await env.DB.prepare("select latest_day_unmapped_urls as n from usage_counters where user_id = ?")
      .bind(user.id)
      .first("n");
    expect(day).toBe(3);
  });

  it(`gives an unmapped URL rows of its own only up to ${UNMAPPED_URL_MAX_LENGTH} characters; a mapped one at any length`, async () => {
    const { user, apiKey } = await customerWithPage({ dynamicContentLimit: null });
    const path = (length: number) => "p".repeat(length - "shop.test/".length);
    const mapped = `shop.test/mapped-${path(400)}`;
    const res = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: `https://${mapped}`, htmlContent: "<p>Long</p>" },
    });
    expect(res.status).toBe(201);
    const longest = `shop.test/${path(UNMAPPED_URL_MAX_LENGTH)}`;
    await consume([
      view(user.id, `https://${longest}`, null, false),
      view(user.id, `https://${longest}q`, null, false),
      view(user.id, `https://${mapped}`, null),
    ]);
    const rows = (
      await env.DB.prepare("select url, hits from url_stats where user_id = ? order by url").bind(user.id).all()
    ).results;
    expect(rows).toEqual([
      { url: OTHER_PAGES, hits: 1 },
      { url: mapped, hits: 1 },
      { url: longest, hits: 1 },
    ]);
    // The one that got no row spent none of the day's allowance.
    expect((await counters(user.id))!.latest_day_unmapped_urls).toBe(1);
  });
});
