import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { OTHER_PAGES } from "#contract/responses";
import { call, createVerifiedCustomer } from "../test/helpers";
import { purgeUnseenUrls, UNSEEN_URL_RETENTION_DAYS } from "./url-retention";

const NOW = new Date("2026-11-26T12:00:00Z");
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A URL's rows as the fold leaves them: last seen `daysAgo`, with a day and a month of its series. */
async function seedUrl(userId: string, url: string, daysAgo: number) {
  const at = NOW.getTime() - daysAgo * DAY_MS;
  await env.DB.batch([
    env.DB.prepare(
      `insert into url_stats (user_id, url, hits, deliveries, last_accessed, last_accessed_hour)
       values (?1, ?2, 3, 0, ?3, ?4)`,
    ).bind(userId, url, at, Math.floor(at / HOUR_MS)),
    env.DB.prepare(
      `insert into url_daily_usage (user_id, url, day, requests, deliveries, crawler_requests)
       values (?1, ?2, '2026-09-01', 2, 0, 0)`,
    ).bind(userId, url),
    env.DB.prepare(
      `insert into url_monthly_usage (user_id, url, month, requests, deliveries, crawler_requests)
       values (?1, ?2, '2025-01-01', 1, 0, 0)`,
    ).bind(userId, url),
  ]);
}

const urlsOf = async (userId: string, table: string) =>
  (
    await env.DB.prepare(`select distinct url from ${table} where user_id = ? order by url`).bind(userId).all()
  ).results.map((r) => r.url);

describe(`rows of URLs without a mapping, not seen for ${UNSEEN_URL_RETENTION_DAYS} days`, () => {
  it("go with their series and search entries; mapped URLs, recent ones and the other pages stay", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const other = await createVerifiedCustomer("d@example.com");
    const res = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/offer", htmlContent: "<p>Sale</p>" },
    });
    expect(res.status).toBe(201);
    await seedUrl(user.id, "shop.test/offer", 200);
    await seedUrl(user.id, "shop.test/stale-junk", UNSEEN_URL_RETENTION_DAYS + 1);
    await seedUrl(user.id, "shop.test/recent", UNSEEN_URL_RETENTION_DAYS - 1);
    await seedUrl(user.id, OTHER_PAGES, 200);
    await seedUrl(other.user.id, "else.test/stale-junk", 90);

    expect(await purgeUnseenUrls(env, NOW)).toBe(2);

    const kept = [OTHER_PAGES, "shop.test/offer", "shop.test/recent"];
    for (const table of ["url_stats", "url_daily_usage", "url_monthly_usage"]) {
      expect(await urlsOf(user.id, table)).toEqual(kept);
      expect(await urlsOf(other.user.id, table)).toEqual([]);
    }
    const search = await call("/api/analytics?searchTerm=junk", { apiKey });
    expect(await search.json()).toEqual([]);
    const found = await call("/api/analytics?searchTerm=recent", { apiKey });
    expect(((await found.json()) as { url: string }[]).map((r) => r.url)).toEqual(["shop.test/recent"]);
  });

  it("go in chunks, where the last run stopped, once a day", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 1200)
       insert into url_stats (user_id, url, hits, deliveries, last_accessed, last_accessed_hour)
       select ?1, 'shop.test/p' || i, 1, 0, 0, 0 from n`,
    )
      .bind(user.id)
      .run();
    expect(await purgeUnseenUrls(env, NOW, 1)).toBe(500);
    expect(await purgeUnseenUrls(env, NOW, 1)).toBe(500);
    expect(await purgeUnseenUrls(env, NOW)).toBe(200);
    // The day's pass is done: a URL gone stale meanwhile waits for the next day's.
    await seedUrl(user.id, "shop.test/late", 40);
    expect(await purgeUnseenUrls(env, NOW)).toBe(0);
    expect(await purgeUnseenUrls(env, new Date(NOW.getTime() + DAY_MS))).toBe(1);
  });
});
