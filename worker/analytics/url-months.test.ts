import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { TimeseriesPoint } from "#contract/timeseries";
import { runEveryMinute } from "../scheduled";
import { call, createVerifiedCustomer, testEnv } from "../test/helpers";
import { firstDayKept, rollUpOldUrlDays } from "./url-months";

const NOW = new Date("2026-11-26T12:00:00Z");
const count = async (sql: string) => Number(await env.DB.prepare(sql).first("n"));

/** `urls` URLs of the customer, each with a view on the 10th of every month from January 2025 to November 2026. */
async function seedDays(userId: string, urls: number) {
  const lastView = Date.parse("2026-11-10T12:00:00Z");
  await env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?2)
     insert into url_stats (user_id, url, hits, deliveries, last_accessed, last_accessed_hour)
     select ?1, 'shop.test/p' || i, 23, 23, ?3, ?3 / 3600000 from n`,
  )
    .bind(userId, urls, lastView)
    .run();
  await env.DB.prepare(
    `with recursive m(k) as (select 0 union all select k + 1 from m where k < 22)
     insert into url_daily_usage (user_id, url, day, requests, deliveries, crawler_requests)
     select s.user_id, s.url, date('2025-01-10', '+' || k || ' months'), 1, 1, 0 from url_stats s, m
     where s.user_id = ?1`,
  )
    .bind(userId)
    .run();
}

describe("per-URL days past 13 months", () => {
  it("keeps the 13 whole months before the current one by day", () => {
    expect(firstDayKept(NOW)).toBe("2025-10-01");
    expect(firstDayKept(new Date("2026-01-01T00:00:00Z"))).toBe("2024-12-01");
  });

  it("are summed into months, once, and the series of a URL says the same before and after", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await seedDays(user.id, 3);
    const series = async (from: string, interval: string) =>
      (
        (await (
          await call(
            `/api/analytics/timeseries?url=${encodeURIComponent("https://shop.test/p1")}&from=${from}&to=2026-11-26&interval=${interval}`,
            { apiKey },
          )
        ).json()) as TimeseriesPoint[]
      ).reduce((sum, p) => sum + p.requests, 0);
    expect(await series("2025-01-01", "month")).toBe(23);

    expect(await rollUpOldUrlDays(testEnv(), NOW)).toBe(3 * 9);
    // January to September 2025 are months now; October 2025 on are days still.
    expect(await count("select count(*) as n from url_monthly_usage")).toBe(3 * 9);
    expect(await count("select count(*) as n from url_daily_usage where day < '2025-10-01'")).toBe(0);
    expect(await count("select count(*) as n from url_daily_usage")).toBe(3 * 14);
    expect(await series("2025-01-01", "month")).toBe(23);
    expect(await series("2025-01-01", "week")).toBe(23);
    // A range that starts within a summed month counts the month in its first bucket.
    expect(await series("2025-03-20", "day")).toBe(21);

    // The pass is done for this month: another run sums nothing again.
    expect(await rollUpOldUrlDays(testEnv(), NOW)).toBe(0);
    expect(await count("select coalesce(sum(requests), 0) as n from url_monthly_usage")).toBe(3 * 9);
    // The next month starts a new pass, which takes October 2025.
    expect(await rollUpOldUrlDays(testEnv(), new Date("2026-12-01T00:01:00Z"))).toBe(3);
    expect(await series("2025-01-01", "month")).toBe(23);
  });

  it("sums a newest day kept on the URL's row once it is past the 13 months", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await env.DB.prepare(
      `insert into url_stats (user_id, url, hits, deliveries, last_accessed, latest_day, latest_day_requests,
         latest_day_deliveries)
       values (?1, 'shop.test/old', 5, 5, 0, '2025-03-04', 2, 2), (?1, 'shop.test/recent', 7, 7, 0, '2025-10-04', 7, 7)`,
    )
      .bind(user.id)
      .run();
    await env.DB.prepare(
      `insert into url_daily_usage (user_id, url, day, requests, deliveries, crawler_requests)
       values (?1, 'shop.test/old', '2025-03-01', 3, 3, 0)`,
    )
      .bind(user.id)
      .run();
    const series = async (url: string) =>
      (
        (await (
          await call(`/api/analytics/timeseries?url=${url}&from=2025-01-01&to=2026-11-26&interval=month`, { apiKey })
        ).json()) as TimeseriesPoint[]
      ).filter((p) => p.requests > 0);
    expect((await series("shop.test/old")).map((p) => [p.start, p.requests])).toEqual([
      ["2025-03-01T00:00:00.000Z", 5],
    ]);
    expect(await rollUpOldUrlDays(testEnv(), NOW)).toBe(2);
    expect(await count("select count(*) as n from url_daily_usage")).toBe(0);
    expect(await count("select requests as n from url_monthly_usage where url = 'shop.test/old'")).toBe(5);
    expect(await count("select count(*) as n from url_stats where latest_day <> ''")).toBe(1);
    expect((await series("shop.test/old")).map((p) => [p.start, p.requests])).toEqual([
      ["2025-03-01T00:00:00.000Z", 5],
    ]);
    expect((await series("shop.test/recent")).map((p) => p.requests)).toEqual([7]);
  });

  it("goes on where a run stopped, 500 URLs a chunk, and the minute cron runs it", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    await seedDays(user.id, 1_200);
    expect(await rollUpOldUrlDays(testEnv(), NOW, 1)).toBe(500 * 9);
    expect(await rollUpOldUrlDays(testEnv(), NOW, 1)).toBe(500 * 9);
    await runEveryMinute(testEnv(), NOW);
    expect(await count("select count(*) as n from url_daily_usage where day < '2025-10-01'")).toBe(0);
    expect(await count("select coalesce(sum(requests), 0) as n from url_monthly_usage")).toBe(1_200 * 9);
  });
});
