import { describe, expect, it } from "vitest";
import type { AnalyticsMessage } from "../messages/analytics";
import { isCrawler } from "../lib/crawlers";
import type { TimeseriesPoint } from "#contract/timeseries";
import { dailyUsage, urlDailyUsage, usageCounters, users } from "../db/schema";
import { eq } from "drizzle-orm";
import { call, countViews, createAdmin, createVerifiedCustomer, db } from "../test/helpers";

const series = async (apiKey: string, query: string) => {
  const res = await call(`/api/analytics/timeseries${query}`, { apiKey });
  return { status: res.status, body: (await res.json()) as TimeseriesPoint[] & { error?: string } };
};

describe("GET /api/analytics/timeseries", () => {
  it("sums the daily rollups per day, week (from Monday) and month, every bucket present", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await db()
      .insert(dailyUsage)
      .values([
        { userId: user.id, day: "2026-10-30", requests: 5, deliveries: 4, crawlerRequests: 1 }, // a Friday
        { userId: user.id, day: "2026-11-02", requests: 7, deliveries: 7, crawlerRequests: 0 }, // a Monday
        { userId: user.id, day: "2026-11-03", requests: 3, deliveries: 1, crawlerRequests: 2 },
      ]);
    const days = await series(apiKey, "?interval=day&from=2026-11-01&to=2026-11-03");
    expect(days.body).toEqual([
      { start: "2026-11-01T00:00:00.000Z", requests: 0, deliveries: 0, crawlerRequests: 0 },
      { start: "2026-11-02T00:00:00.000Z", requests: 7, deliveries: 7, crawlerRequests: 0 },
      { start: "2026-11-03T00:00:00.000Z", requests: 3, deliveries: 1, crawlerRequests: 2 },
    ]);
    const weeks = await series(apiKey, "?interval=week&from=2026-10-26&to=2026-11-08");
    expect(weeks.body).toEqual([
      { start: "2026-10-26T00:00:00.000Z", requests: 5, deliveries: 4, crawlerRequests: 1 },
      { start: "2026-11-02T00:00:00.000Z", requests: 10, deliveries: 8, crawlerRequests: 2 },
    ]);
    const months = await series(apiKey, "?interval=month&from=2026-10-01&to=2026-11-30");
    expect(months.body.map((p) => [p.start, p.requests])).toEqual([
      ["2026-10-01T00:00:00.000Z", 5],
      ["2026-11-01T00:00:00.000Z", 10],
    ]);
    // Another customer's rollups are not theirs.
    const other = await createVerifiedCustomer("o@example.com");
    const theirs = await series(other.apiKey, "?interval=month&from=2026-10-01&to=2026-11-30");
    expect(theirs.body.map((p) => p.requests)).toEqual([0, 0]);
  });

  it("takes a date-time as the UTC day it falls on, as people write ranges", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { status, body } = await series(apiKey, "?from=2026-11-24T08:50:00Z&to=2026-11-26T01:30:00%2B02:00");
    expect(status).toBe(200);
    expect(body.map((p) => p.start)).toEqual(["2026-11-24T00:00:00.000Z", "2026-11-25T00:00:00.000Z"]);
  });

  it("answers the last 30 days by day without a range", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { body } = await series(apiKey, "");
    expect(body).toHaveLength(30);
    expect(body.at(-1)!.start).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
  });

  it("refuses a bad interval, date, range or URL, with a message", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    for (const [query, error] of [
      ["?interval=hour", 'Interval must be "day", "week" or "month"'],
      ["?from=yesterday", "From must be a date such as 2026-11-25 or a date-time such as 2026-11-25T08:50:00Z"],
      ["?from=2026-11-02&to=2026-11-01", "From must not be after To"],
      ["?from=2020-01-01&to=2026-11-01", "A series can reach at most 1,096 days"],
      ["?url=", "URL must not be empty: leave it out for the whole account"],
      [`?url=https://shop.test/${"a".repeat(2_048)}`, "URL must be at most 2,048 characters"],
    ]) {
      const { status, body } = await series(apiKey, query!);
      expect(status, query).toBe(400);
      expect(body).toEqual({ error });
    }
  });

  it("counts known search and AI crawlers apart, by their user agent", async () => {
    expect(isCrawler("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe(true);
    expect(isCrawler("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)")).toBe(true);
    expect(isCrawler("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36")).toBe(false);
    expect(isCrawler(null)).toBe(false);

    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await call("/api/mappings", { method: "POST", apiKey, json: { url: "https://shop.test/a", htmlContent: "A" } });
    const view = (userAgent: string): AnalyticsMessage => ({
      id: crypto.randomUUID(),
      userId: user.id,
      url: "https://shop.test/a",
      mappingId: null,
      delivered: false,
      timestamp: Date.now(),
      userAgent,
      referer: null,
    });
    const views = [view("Googlebot/2.1"), view("ClaudeBot/1.0"), view("Mozilla/5.0 Firefox/133.0")];
    await countViews(views);
    const { body } = await series(apiKey, "");
    expect(body.at(-1)).toMatchObject({ requests: 3, crawlerRequests: 2 });
    // The URL's own series says the same: whether search engines fetched this page.
    const page = await series(apiKey, "?url=https%3A%2F%2Fshop.test%2Fa");
    expect(page.body.at(-1)).toMatchObject({ requests: 3, crawlerRequests: 2 });
    // A redelivered batch counts nothing twice, in the URL's rows too.
    await countViews(views);
    expect((await series(apiKey, "?url=shop.test/a")).body.at(-1)).toMatchObject({ requests: 3, crawlerRequests: 2 });
  });

  it("keeps a URL's days apart across midnight: a fold of two days, the next day, a late view", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await call("/api/mappings", { method: "POST", apiKey, json: { url: "https://shop.test/a", htmlContent: "A" } });
    const DAY = 86_400_000;
    const today = Math.floor(Date.now() / DAY) * DAY;
    const view = (timestamp: number, url = "https://shop.test/a"): AnalyticsMessage => ({
      id: crypto.randomUUID(),
      userId: user.id,
      url,
      mappingId: null,
      delivered: false,
      timestamp,
      userAgent: "Mozilla/5.0 Firefox/133.0",
      referer: null,
    });
    // One fold of two days, on the mapped URL and on one without a mapping.
    await countViews([
      view(today - 2 * DAY + 1_000),
      view(today - DAY + 1_000),
      view(today - DAY + 2_000),
      view(today - DAY + 1_000, "https://shop.test/new"),
    ]);
    // The next day, with a late view of the day before.
    await countViews([view(today + 1_000), view(today - DAY + 3_000), view(today + 2_000, "https://shop.test/new")]);
    await countViews([view(today + 3_000)]);

    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const range = `&interval=day&from=${day(today - 2 * DAY)}&to=${day(today)}`;
    const requests = async (url: string) => (await series(apiKey, `?url=${url}${range}`)).body.map((p) => p.requests);
    expect(await requests("shop.test/a")).toEqual([1, 3, 2]);
    expect(await requests("shop.test/new")).toEqual([0, 1, 1]);
    // The account's days too: its newest on the customer's counters row, the ones before in daily_usage.
    expect((await series(apiKey, `?${range.slice(1)}`)).body.map((p) => p.requests)).toEqual([1, 4, 3]);
    const weeks = await series(apiKey, `?url=shop.test/a&interval=week&from=${day(today - 2 * DAY)}&to=${day(today)}`);
    expect(weeks.body.reduce((n, p) => n + p.requests, 0)).toBe(6);
    // The URL without a mapping spent each day's allowance once; the newest day is on the customer's counters row.
    const unmapped = await db()
      .select({ day: dailyUsage.day, unmappedUrls: dailyUsage.unmappedUrls })
      .from(dailyUsage)
      .where(eq(dailyUsage.userId, user.id))
      .orderBy(dailyUsage.day);
    const newest = await db()
      .select({ day: usageCounters.latestDay, unmappedUrls: usageCounters.latestDayUnmappedUrls })
      .from(usageCounters)
      .where(eq(usageCounters.userId, user.id));
    expect([...unmapped, ...newest]).toEqual([
      { day: day(today - 2 * DAY), unmappedUrls: 0 },
      { day: day(today - DAY), unmappedUrls: 1 },
      { day: day(today), unmappedUrls: 1 },
    ]);
  });

  it("answers one URL's series, its URL as visited or as the Analytics tab lists it, and zeros for another", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await db()
      .update(users)
      .set({ ignoredParameters: ["ref"] })
      .where(eq(users.id, user.id));
    await db()
      .insert(urlDailyUsage)
      .values([
        { userId: user.id, url: "shop.test/a", day: "2026-11-02", requests: 4, deliveries: 3, crawlerRequests: 1 },
        { userId: user.id, url: "shop.test/a", day: "2026-11-03", requests: 2, deliveries: 2, crawlerRequests: 2 },
        { userId: user.id, url: "shop.test/b", day: "2026-11-03", requests: 9, deliveries: 9, crawlerRequests: 0 },
      ]);
    const expected = [
      { start: "2026-11-02T00:00:00.000Z", requests: 4, deliveries: 3, crawlerRequests: 1 },
      { start: "2026-11-03T00:00:00.000Z", requests: 2, deliveries: 2, crawlerRequests: 2 },
    ];
    const range = "&interval=day&from=2026-11-02&to=2026-11-03";
    for (const url of ["https://www.Shop.test/a/?utm_source=mail&ref=x", "shop.test/a"]) {
      expect((await series(apiKey, `?url=${encodeURIComponent(url)}${range}`)).body, url).toEqual(expected);
    }
    expect((await series(apiKey, `?url=shop.test/none${range}`)).body.map((p) => p.requests)).toEqual([0, 0]);
    // Another customer asking for the same URL sees their own (none).
    const other = await createVerifiedCustomer("o@example.com");
    expect((await series(other.apiKey, `?url=shop.test/a${range}`)).body.map((p) => p.requests)).toEqual([0, 0]);
  });
});

describe("GET /api/admin/users/:userId/timeseries", () => {
  it("shows an admin a customer's series, of the account or one URL; 404 for an unknown customer", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const admin = await createAdmin();
    await db()
      .insert(dailyUsage)
      .values({ userId: user.id, day: "2026-11-03", requests: 5, deliveries: 4, crawlerRequests: 1 });
    await db().insert(urlDailyUsage).values({
      userId: user.id,
      url: "shop.test/a",
      day: "2026-11-03",
      requests: 2,
      deliveries: 2,
      crawlerRequests: 0,
    });
    const ask = async (userId: string, query: string) => {
      const res = await call(`/api/admin/users/${userId}/timeseries${query}`, { apiKey: admin.apiKey });
      return { status: res.status, body: (await res.json()) as TimeseriesPoint[] & { error?: string } };
    };
    const range = "?interval=week&from=2026-11-02&to=2026-11-08";
    expect((await ask(user.id, range)).body).toEqual([
      { start: "2026-11-02T00:00:00.000Z", requests: 5, deliveries: 4, crawlerRequests: 1 },
    ]);
    expect((await ask(user.id, `${range}&url=shop.test/a`)).body.map((p) => p.requests)).toEqual([2]);
    expect(await ask("nobody", range)).toEqual({ status: 404, body: { error: "User not found" } });
  });
});
