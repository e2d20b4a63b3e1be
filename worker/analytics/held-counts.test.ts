/**
 * Reads that add what a reducer holds instead of settling it (models/held-counts.ts): every screen of a customer's
 * totals and of their mappings' counts shows a held view exactly once, before its settle, while its settled sums wait to be counted, and after;
 * and a read writes nothing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import {
  OTHER_PAGES,
  type AnalyticsRow,
  type CustomerDashboard,
  type Mapping,
  type Onboarding,
  type Stats,
} from "#contract/responses";
import type { TimeseriesPoint } from "#contract/timeseries";
import type { AnalyticsMessage } from "../messages/analytics";
import { heldRequests, recentRows, urlSums, type CountedSum } from "../models/held-counts";
import { getUser } from "../models/users";
import type { Page } from "#contract/page";
import {
  analyticsRows,
  HELD_ORDER_MAX_MS,
  recentRowsFor,
  userStats,
  withUnsettledRows,
  type ListSettleReason,
} from "../models/usage";
import { call, createAdmin, createCustomerOnPlan, db, deliverAnalytics, whileWritesFail } from "../test/helpers";
import { UNMAPPED_URL_MAX_LENGTH, UNMAPPED_URLS_PER_DAY } from "./count";
import { foldPendingAnalytics } from "./fold";
import { heldBy, settleCounters } from "./reducer-shards";
import { visitorDailyQuota } from "./reducer-visitors";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const LIMIT = 1_000;
const QUOTA = visitorDailyQuota(LIMIT);

const view = (userId: string, visitor: string, userAgent = BROWSER): AnalyticsMessage => ({
  id: crypto.randomUUID(),
  userId,
  url: "https://shop.test/offer",
  mappingId: null,
  delivered: true,
  timestamp: Date.now(),
  userAgent,
  referer: null,
  visitor,
});

/** The views the customer's reducers hold, settled or not since. */
const heldViews = async (userId: string) =>
  (await heldBy(env, userId))?.peeks.reduce((n, peek) => n + heldRequests(peek.counts), 0) ?? 0;

/** Views handed to the customer's reducer by the minute's fold, and held there (nothing settled). */
async function holdViews(messages: AnalyticsMessage[]) {
  await deliverAnalytics(messages);
  await foldPendingAnalytics(env);
}

/** The D1 rows that hold or settle counts, as text: equal before and after a read that writes nothing. */
const countRows = async (userId: string) =>
  JSON.stringify(
    await env.DB.batch(
      [
        "select * from usage_counters where user_id = ?1",
        "select * from daily_usage where user_id = ?1",
        "select * from url_stats where user_id = ?1",
        "select * from reducer_checkpoints where user_id = ?1",
        "select seq, views from analytics_pending",
      ].map((sql) => (sql.includes("?1") ? env.DB.prepare(sql).bind(userId) : env.DB.prepare(sql))),
    ).then((results) => results.map((r) => r.results)),
  );

describe("reads of a customer's totals", () => {
  it("show a held view exactly once on every screen, before its settle, while it waits to be counted, and after", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: LIMIT });
    const admin = await createAdmin();
    const day = new Date().toISOString().slice(0, 10);
    const get = async <T>(path: string, key = apiKey): Promise<T> => {
      const res = await call(path, { apiKey: key });
      expect(res.status, path).toBe(200);
      return (await res.json()) as T;
    };
    const screens = async () => {
      const stats = await get<Stats>("/api/user/stats");
      const { usage } = await get<CustomerDashboard>("/api/user/dashboard");
      const series = `?interval=day&from=${day}&to=${day}`;
      const [today] = await get<TimeseriesPoint[]>(`/api/analytics/timeseries${series}`);
      const [adminToday] = await get<TimeseriesPoint[]>(
        `/api/admin/users/${user.id}/timeseries${series}`,
        admin.apiKey,
      );
      const { steps } = await get<Onboarding>("/api/onboarding");
      return {
        totalRequests: stats.totalRequests,
        lastMonthRequests: stats.lastMonthRequests,
        contentGenerations: usage.contentGenerations,
        notBilled: usage.notBilled,
        today: { ...today, start: undefined },
        adminToday: { ...adminToday, start: undefined },
        firstView: steps.find((step) => step.key === "firstView")!.done,
      };
    };

    // One visitor past their day's budget by 3, and two crawler views.
    await holdViews([
      ...Array.from({ length: QUOTA + 3 }, () => view(user.id, "v1")),
      view(user.id, "v2", GOOGLEBOT),
      view(user.id, "v3", GOOGLEBOT),
    ]);
    const shown = {
      totalRequests: QUOTA + 5,
      lastMonthRequests: QUOTA + 5,
      contentGenerations: QUOTA,
      notBilled: { requests: 5, contentGenerations: 5 },
      today: { start: undefined, requests: QUOTA + 5, deliveries: QUOTA + 5, crawlerRequests: 2 },
      adminToday: { start: undefined, requests: QUOTA + 5, deliveries: QUOTA + 5, crawlerRequests: 2 },
      firstView: true,
    };
    const before = await countRows(user.id);
    expect(await screens()).toEqual(shown);
    // Nothing was settled or written by those reads: the reducer still holds every view.
    expect(await countRows(user.id)).toBe(before);
    expect(await heldViews(user.id)).toBe(QUOTA + 5);

    // The reducer settles, and its count fails: the settled sums wait in a pending row.
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await whileWritesFail("usage_counters", () => settleCounters(env, [user.id]));
    warned.mockRestore();
    expect(await heldViews(user.id)).toBe(0);
    expect(await screens()).toEqual(shown);

    // The minute cron counts them.
    await foldPendingAnalytics(env);
    expect(await screens()).toEqual(shown);
    expect(
      await env.DB.prepare("select total_requests from usage_counters where user_id = ?").bind(user.id).first(),
    ).toEqual({ total_requests: QUOTA + 5 });
  });

  it("show a held view of a mapping once in the mappings list (paged, by URL, whole) and export, before and after its settle", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const created = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/offer", htmlContent: "<p>Sale</p>" },
    });
    const mapping = (await created.json()) as Mapping;
    const list = async () =>
      Promise.all(
        [
          "/api/mappings?limit=10",
          "/api/mappings?limit=10&group=url",
          "/api/mappings",
          "/api/mappings/export?format=json",
        ].map(async (path) => {
          const res = await call(path, { apiKey });
          expect(res.status, path).toBe(200);
          return ((await res.json()) as Mapping[]).map((row) => [row.totalRequests, row.contentDeliveryCount]);
        }),
      );
    await holdViews([0, 1, 2].map(() => ({ ...view(user.id, "v1"), mappingId: mapping.id })));
    const shown = [[[3, 3]], [[3, 3]], [[3, 3]], [[3, 3]]];
    const before = await countRows(user.id);
    expect(await list()).toEqual(shown);
    expect(await countRows(user.id)).toBe(before);

    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await whileWritesFail("usage_counters", () => settleCounters(env, [user.id]));
    warned.mockRestore();
    expect(await list()).toEqual(shown);
    await foldPendingAnalytics(env);
    expect(await list()).toEqual(shown);
  });

  it("add what a peek saw once when a settle commits between the peek and the read, counted or not", async () => {
    const { user } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const customer = (await getUser(db(), user.id))!;
    const total = async (peek: Awaited<ReturnType<typeof heldBy>>) =>
      (await userStats(db(), customer, peek)).totalRequests;

    await holdViews([view(user.id, "v1"), view(user.id, "v1"), view(user.id, "v2")]);
    const first = await heldBy(env, user.id);
    expect(await total(first)).toBe(3);
    // Settled after the peek, its count failing: in a pending row, not in the counters.
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await whileWritesFail("usage_counters", () => settleCounters(env, [user.id]));
    warned.mockRestore();
    expect(await total(first)).toBe(3);
    expect(await total(await heldBy(env, user.id))).toBe(3);
    expect(await total(null)).toBe(3);
    await foldPendingAnalytics(env);
    expect(await total(first)).toBe(3);

    // Settled and counted after the peek: in the counters alone.
    await holdViews([view(user.id, "v1"), view(user.id, "v3")]);
    const second = await heldBy(env, user.id);
    expect(await total(second)).toBe(5);
    await settleCounters(env, [user.id]);
    expect(await total(second)).toBe(5);
    // A view held after the peek shows with the next one.
    await holdViews([view(user.id, "v4")]);
    expect(await total(second)).toBe(5);
    expect(await total(await heldBy(env, user.id))).toBe(6);
  });

  it("settle one URL's series first: a held view of a new URL may count in its own row or in other pages", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    await holdViews([view(user.id, "v1")]);
    const day = new Date().toISOString().slice(0, 10);
    const url = encodeURIComponent("https://shop.test/offer");
    const res = await call(`/api/analytics/timeseries?interval=day&from=${day}&to=${day}&url=${url}`, { apiKey });
    expect(((await res.json()) as TimeseriesPoint[])[0]!.requests).toBe(1);
    expect(await heldViews(user.id)).toBe(0);
  });
});

describe("the analytics list (hits per URL)", () => {
  const DAY_MS = 86_400_000;
  /** A view of `https://shop.test/<path>` at `timestamp`. */
  const at = (userId: string, path: string, timestamp: number): AnalyticsMessage => ({
    ...view(userId, "v1"),
    url: `https://shop.test/${path}`,
    timestamp,
  });
  const row = (url: string, totalHits: number, timestamp: number): AnalyticsRow => ({
    url,
    totalHits,
    lastAccessed: new Date(timestamp).toISOString(),
  });
  const listOf = async (apiKey: string, query = "") => {
    const res = await call(`/api/analytics${query}`, { apiKey });
    expect(res.status, query).toBe(200);
    return { total: res.headers.get("X-Total-Count"), rows: (await res.json()) as AnalyticsRow[] };
  };
  /** A path whose URL is too long for a row of its own: its views count in other pages. */
  const LONG = "x".repeat(UNMAPPED_URL_MAX_LENGTH);
  /** Today's new URLs used up but `left`, as if the rest had come before. */
  const newUrlsLeft = (userId: string, left: number) =>
    env.DB.prepare(`update usage_counters set latest_day_unmapped_urls = ?2 where user_id = ?1`)
      .bind(userId, UNMAPPED_URLS_PER_DAY - left)
      .run();
  type ListPage = Awaited<ReturnType<typeof analyticsRows>>;
  /** The rows `withUnsettledRows` shows, or why the list settles instead. */
  const rowsOr = (shown: Page<AnalyticsRow> | ListSettleReason) => (typeof shown === "string" ? shown : shown.rows);
  /** What the list's route asks of the reducer for `page` of `query`. */
  const peekFor = (userId: string, page: ListPage, query: Parameters<typeof recentRowsFor>[0]) =>
    heldBy(
      env,
      userId,
      page.rows.map((r) => r.url),
      recentRowsFor(query),
    );
  /** A customer whose rows of `a` and other pages are counted, a minute ago (`t`), with one new URL left today. */
  const oneNewUrlLeft = async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const t = Date.now() - 60_000;
    await holdViews([at(user.id, "a", t), at(user.id, LONG, t)]);
    await settleCounters(env, [user.id]);
    await newUrlsLeft(user.id, 1);
    return { user, apiKey, t };
  };
  const settleFailingCount = async (userId: string) => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await whileWritesFail("usage_counters", () => settleCounters(env, [userId]));
    warned.mockRestore();
  };

  it("adds held views of URLs counted today to their rows, the same before, during and after their settle, writing nothing", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const t = Date.now() - 60_000;
    await holdViews([at(user.id, "a", t), at(user.id, "b", t + 1_000)]);
    await settleCounters(env, [user.id]);
    // Held: two views of a, newer than b's, so that a leads once they count (in SQL's order of its rows, b leads).
    await holdViews([at(user.id, "a", t + 2_000), at(user.id, "a", t + 2_000)]);
    const a = row("shop.test/a", 3, t + 2_000);
    const b = row("shop.test/b", 1, t + 1_000);
    const before = await countRows(user.id);
    expect(await listOf(apiKey)).toEqual({ total: "2", rows: [a, b] });
    expect(await listOf(apiKey, "?sortBy=timestamp&sortDirection=asc")).toEqual({ total: "2", rows: [b, a] });
    expect(await listOf(apiKey, "?sortBy=url&sortDirection=desc")).toEqual({ total: "2", rows: [b, a] });
    expect(await listOf(apiKey, "?searchTerm=test/a")).toEqual({ total: "1", rows: [a] });
    // Nothing was settled or written: the reducer still holds the two views.
    expect(await countRows(user.id)).toBe(before);
    expect(await heldViews(user.id)).toBe(2);

    // Settled, the count failing: the sums wait in a pending row; then the minute cron counts them.
    await settleFailingCount(user.id);
    expect(await listOf(apiKey)).toEqual({ total: "2", rows: [a, b] });
    await foldPendingAnalytics(env);
    expect(await listOf(apiKey)).toEqual({ total: "2", rows: [a, b] });
  });

  it(`sorted by Last Accessed past the first page, leaves a row whose views are held on a later page for at most ${HELD_ORDER_MAX_MS / 1_000} s`, async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const t = Date.now() - 60_000;
    await holdViews([at(user.id, "a", t), at(user.id, "b", t + 1_000)]);
    await settleCounters(env, [user.id]);
    // Held: a view of a, which makes a the newest: the first page of one row takes it in; the second trails.
    await holdViews([at(user.id, "a", t + 2_000)]);
    const a = row("shop.test/a", 2, t + 2_000);
    const before = await countRows(user.id);
    expect(await listOf(apiKey, "?limit=1")).toEqual({ total: "2", rows: [a] });
    expect(await listOf(apiKey, "?limit=1&offset=1")).toEqual({ total: "2", rows: [a] });
    expect(await listOf(apiKey, "?limit=1&sortBy=url&sortDirection=asc")).toEqual({ total: "2", rows: [a] });
    expect(await countRows(user.id)).toBe(before);

    // A minute later the second page is not SQL's any more: it settles. Sorted by URL, or the first page, it adds.
    const later = Date.now() + HELD_ORDER_MAX_MS + 1;
    const overlaid = async (query: { limit: number; offset: number; sortBy?: "url"; sortDirection?: "asc" }) => {
      const page = await analyticsRows(db(), user.id, query);
      const peek = await peekFor(user.id, page, query);
      return rowsOr(await withUnsettledRows(db(), user.id, page, peek!, query, later));
    };
    expect(await overlaid({ limit: 1, offset: 1 })).toBe("held too long for a later page");
    expect(await overlaid({ limit: 1, offset: 0, sortBy: "url", sortDirection: "asc" })).toEqual([a]);
    expect(await overlaid({ limit: 1, offset: 0 })).toEqual([a]);
    expect(await countRows(user.id)).toBe(before);
  });

  it("settles first when a held URL has no row yet: its row appears", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const t = Date.now() - 60_000;
    await holdViews([at(user.id, "a", t)]);
    await settleCounters(env, [user.id]);
    await holdViews([at(user.id, "a", t + 1_000), at(user.id, "new", t + 2_000)]);
    expect(await listOf(apiKey)).toEqual({
      total: "2",
      rows: [row("shop.test/new", 1, t + 2_000), row("shop.test/a", 2, t + 1_000)],
    });
    expect(await heldViews(user.id)).toBe(0);
  });

  it(`counts a held view past the day's ${UNMAPPED_URLS_PER_DAY} new URLs in other pages, as before, even one of a URL with a row of another day`, async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const now = Date.now();
    const yesterday = now - DAY_MS;
    await holdViews([at(user.id, "old", yesterday)]);
    await settleCounters(env, [user.id]);
    // The day's new URLs used up, as if 1,000 had come before.
    await env.DB.prepare(
      `update usage_counters set latest_day = ?2, latest_day_requests = 0, latest_day_unmapped_urls = ?3
       where user_id = ?1`,
    )
      .bind(user.id, new Date(now).toISOString().slice(0, 10), UNMAPPED_URLS_PER_DAY)
      .run();
    // The URL with yesterday's row is a new URL of today (count.ts KNOWN): past the day's new URLs, its view counts
    // in other pages, not on its row.
    await holdViews([at(user.id, "old", now)]);
    expect(await listOf(apiKey)).toEqual({
      total: "2",
      rows: [row(OTHER_PAGES, 1, now), row("shop.test/old", 1, yesterday)],
    });
    expect(await heldViews(user.id)).toBe(0);
  });

  it("adds what a peek saw once when a settle commits between the page's read, the peek and the overlay, counted or not", async () => {
    const { user } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const t = Date.now() - 60_000;
    const query = { limit: 100, offset: 0 };
    await holdViews([at(user.id, "a", t)]);
    await settleCounters(env, [user.id]);
    const hitsOfA = async (page: ListPage, peek: Awaited<ReturnType<typeof heldBy>>) =>
      (rowsOr(await withUnsettledRows(db(), user.id, page, peek!, query)) as AnalyticsRow[]).map((r) => r.totalHits);
    const peekOf = (page: ListPage) => peekFor(user.id, page, query);

    // Settled and counted after the peek.
    await holdViews([at(user.id, "a", t + 1_000)]);
    let page = await analyticsRows(db(), user.id, query);
    let peek = await peekOf(page);
    expect(await hitsOfA(page, peek)).toEqual([2]);
    await settleCounters(env, [user.id]);
    expect(await hitsOfA(page, peek)).toEqual([2]);

    // Settled after the peek, its count failing (a pending row), then counted.
    await holdViews([at(user.id, "a", t + 2_000)]);
    page = await analyticsRows(db(), user.id, query);
    peek = await peekOf(page);
    await settleFailingCount(user.id);
    expect(await hitsOfA(page, peek)).toEqual([3]);
    await foldPendingAnalytics(env);
    expect(await hitsOfA(page, peek)).toEqual([3]);

    // Settled and counted between the page's read and the peek: the rows are read again with the peek.
    await holdViews([at(user.id, "a", t + 3_000)]);
    page = await analyticsRows(db(), user.id, query);
    await settleCounters(env, [user.id]);
    peek = await peekOf(page);
    expect(await hitsOfA(page, peek)).toEqual([4]);

    // A view held after the peek shows with the next one.
    await holdViews([at(user.id, "a", t + 4_000)]);
    expect(await hitsOfA(page, peek)).toEqual([4]);
    expect(await hitsOfA(page, await peekOf(page))).toEqual([5]);
  });

  it(`past the day's ${UNMAPPED_URLS_PER_DAY} new URLs, adds held views of new URLs and of URLs too long for a row to other pages, writing nothing; before, settles`, async () => {
    // One new URL left today: a held view of a new URL may get a row of its own, so the list settles first.
    const { user, apiKey, t } = await oneNewUrlLeft();
    await holdViews([at(user.id, "n1", t + 1_000)]);
    const query = { limit: 100, offset: 0 };
    const page = await analyticsRows(db(), user.id, query);
    const peek = await peekFor(user.id, page, query);
    expect(await withUnsettledRows(db(), user.id, page, peek!, query)).toBe("new URL held");
    const n1 = row("shop.test/n1", 1, t + 1_000);
    expect(await listOf(apiKey)).toEqual({ total: "3", rows: [n1, row("shop.test/a", 1, t), row(OTHER_PAGES, 1, t)] });
    expect(await heldViews(user.id)).toBe(0);

    // That used them up: views of new URLs count in other pages, as those of URLs too long do; a's on its row.
    await holdViews([
      at(user.id, "n2", t + 2_000),
      at(user.id, "n3", t + 3_000),
      at(user.id, `${LONG}2`, t + 4_000),
      at(user.id, "a", t + 500),
    ]);
    const other = row(OTHER_PAGES, 4, t + 4_000);
    const a = row("shop.test/a", 2, t + 500);
    const lists = async () => [
      await listOf(apiKey),
      await listOf(apiKey, "?sortBy=url&sortDirection=asc"),
      await listOf(apiKey, "?searchTerm=pages"),
    ];
    const shown = [
      { total: "3", rows: [other, n1, a] },
      { total: "3", rows: [other, a, n1] },
      { total: "1", rows: [other] },
    ];
    const before = await countRows(user.id);
    expect(await lists()).toEqual(shown);
    expect(await countRows(user.id)).toBe(before);
    expect(await heldViews(user.id)).toBe(4);
    await settleCounters(env, [user.id]);
    expect(await heldViews(user.id)).toBe(0);
    expect(await lists()).toEqual(shown);
  });

  it("settles a held view of a URL whose day had new URLs left at its handoff, though a count used them up since", async () => {
    const { user, apiKey, t } = await oneNewUrlLeft();
    // n's first view is held; its second waits in a consumer's row; the first is settled, its count failing. The next
    // fold hands the second off (n has no row yet), then counts the first: n gets the day's last row of its own.
    await holdViews([at(user.id, "n", t + 1_000)]);
    await deliverAnalytics([at(user.id, "n", t + 2_000)]);
    await settleFailingCount(user.id);
    await foldPendingAnalytics(env);
    expect(await heldViews(user.id)).toBe(1);
    expect(await listOf(apiKey)).toEqual({
      total: "3",
      rows: [row("shop.test/n", 2, t + 2_000), row("shop.test/a", 1, t), row(OTHER_PAGES, 1, t)],
    });
    expect(await heldViews(user.id)).toBe(0);
  });

  it("shows the first page by Last Accessed as a settle then does, taking in rows off it whose views are held, writing nothing", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const t = Date.now() - 60_000;
    await holdViews([
      at(user.id, LONG, t - 10_000),
      ...[1, 2, 3, 4, 5].map((i) => at(user.id, `u${i}`, t + (i - 1) * 1_000)),
    ]);
    await settleCounters(env, [user.id]);
    await newUrlsLeft(user.id, 0);
    // Held: views of u1 and of a new URL (other pages), the oldest rows, which make them the newest; and one of u5.
    await holdViews([at(user.id, "u1", t + 10_000), at(user.id, "new", t + 11_000), at(user.id, "u5", t + 5_000)]);
    const u = (i: number, hits = 1, time = t + (i - 1) * 1_000) => row(`shop.test/u${i}`, hits, time);
    const other = row(OTHER_PAGES, 2, t + 11_000);
    const [u1, u5] = [u(1, 2, t + 10_000), u(5, 2, t + 5_000)];
    const lists = async () => [
      await listOf(apiKey, "?limit=3"),
      await listOf(apiKey, "?limit=3&searchTerm=shop.test/u"),
      await listOf(apiKey, "?limit=10&sortDirection=asc"),
    ];
    const shown = [
      { total: "6", rows: [other, u1, u5] },
      { total: "5", rows: [u1, u5, u(4)] },
      { total: "6", rows: [u(2), u(3), u(4), u5, u1, other] },
    ];
    const before = await countRows(user.id);
    expect(await lists()).toEqual(shown);
    expect(await countRows(user.id)).toBe(before);

    // Oldest first, a full page whose rows got newer than its last may take in rows off it: not added.
    const asc = { limit: 3, offset: 0, sortDirection: "asc" as const };
    const page = await analyticsRows(db(), user.id, asc);
    const peek = await heldBy(
      env,
      user.id,
      page.rows.map((r) => r.url),
    );
    expect(await withUnsettledRows(db(), user.id, page, peek!, asc)).toBe("row past the page's last");
    await settleCounters(env, [user.id]);
    expect(await lists()).toEqual(shown);
  });

  it("takes rows off the first page in once when a settle commits between the peek and the read, counted or not", async () => {
    const { user } = await createCustomerOnPlan({ dynamicContentLimit: null });
    const t = Date.now() - 60_000;
    await holdViews([at(user.id, "a", t), at(user.id, "b", t + 1_000), at(user.id, "c", t + 2_000)]);
    await settleCounters(env, [user.id]);
    await holdViews([at(user.id, "a", t + 3_000)]);
    const query = { limit: 2, offset: 0 };
    const page = await analyticsRows(db(), user.id, query);
    const peek = await peekFor(user.id, page, query);
    const shown = [row("shop.test/a", 2, t + 3_000), row("shop.test/c", 1, t + 2_000)];
    expect(rowsOr(await withUnsettledRows(db(), user.id, page, peek!, query))).toEqual(shown);
    // Settled after the peek, its count failing: a's sum waits in a pending row, added once.
    await settleFailingCount(user.id);
    expect(rowsOr(await withUnsettledRows(db(), user.id, page, peek!, query))).toEqual(shown);
    // Counted: a's row came onto the page since it was read, so the list settles and reads it again.
    await foldPendingAnalytics(env);
    expect(await withUnsettledRows(db(), user.id, page, peek!, query)).toBe("page changed");
    expect((await analyticsRows(db(), user.id, query)).rows).toEqual(shown);
  });
});

const countedSum = (fields: Partial<CountedSum>): CountedSum => ({
  url: "shop.test/a",
  day: "2026-11-26",
  mappingId: null,
  crawler: 0,
  n: 1,
  delivered: 1,
  timestamp: 1_000,
  known: 1,
  ...fields,
});
const longUrl = `shop.test/${"é".repeat(UNMAPPED_URL_MAX_LENGTH)}`;

describe("held sums per row", () => {
  it("put a URL not known in other pages, and its views in its day's new URLs unless too long for a row or its day's were used up", () => {
    const found = urlSums(
      [
        countedSum({ n: 2, timestamp: 3_000 }),
        countedSum({ url: "shop.test/b" }),
        countedSum({ url: "shop.test/new", known: 0, timestamp: 4_000 }),
        countedSum({ url: "shop.test/new", known: 2, day: "2026-11-25", delivered: 0 }),
        countedSum({ url: longUrl, known: 0, timestamp: 5_000 }),
        countedSum({ url: longUrl.slice(0, UNMAPPED_URL_MAX_LENGTH), known: 0, day: "2026-11-24" }),
      ],
      new Set(["shop.test/a"]),
    );
    expect(found).toEqual({
      urls: {
        "shop.test/a": { hits: 2, deliveries: 1, lastAccessed: 3_000 },
        [OTHER_PAGES]: { hits: 4, deliveries: 3, lastAccessed: 5_000 },
      },
      elsewhere: 1,
      newUrlDays: {
        "2026-11-26": { hits: 1, deliveries: 1, lastAccessed: 4_000 },
        "2026-11-24": { hits: 1, deliveries: 1, lastAccessed: 1_000 },
      },
    });
  });

  it("answer the rows of the newest held views, newest first then by URL as the list sorts, and whether that is all", () => {
    const sums = [
      countedSum({ url: "shop.test/a", timestamp: 2_000 }),
      countedSum({ url: "shop.test/a", timestamp: 1_000, day: "2026-11-25" }),
      countedSum({ url: "shop.test/b", timestamp: 2_000 }),
      countedSum({ url: "shop.test/new", known: 0, timestamp: 1_500 }),
      countedSum({ url: "shop.test/c", timestamp: 500 }),
    ];
    expect(recentRows(sums, 3)).toEqual({ recent: ["shop.test/b", "shop.test/a", OTHER_PAGES], recentAll: false });
    expect(recentRows(sums, 4)).toEqual({
      recent: ["shop.test/b", "shop.test/a", OTHER_PAGES, "shop.test/c"],
      recentAll: true,
    });
    expect(recentRows(sums, 0)).toEqual({ recent: [], recentAll: false });
  });
});
