/**
 * Reads that add what a reducer holds instead of settling it (models/held-counts.ts): every screen of a customer's
 * totals and of their mappings' counts shows a held view exactly once, before its settle, while its settled sums wait to be counted, and after;
 * and a read writes nothing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { CustomerDashboard, Mapping, Onboarding, Stats } from "#contract/responses";
import type { TimeseriesPoint } from "#contract/timeseries";
import type { AnalyticsMessage } from "../messages/analytics";
import { heldRequests } from "../models/held-counts";
import { getUser } from "../models/users";
import { userStats } from "../models/usage";
import { call, createAdmin, createCustomerOnPlan, db, deliverAnalytics, whileWritesFail } from "../test/helpers";
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
    expect(heldRequests((await heldBy(env, user.id))!.counts)).toBe(QUOTA + 5);

    // The reducer settles, and its count fails: the settled sums wait in a pending row.
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await whileWritesFail("usage_counters", () => settleCounters(env, [user.id]));
    warned.mockRestore();
    expect(heldRequests((await heldBy(env, user.id))!.counts)).toBe(0);
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
    expect(heldRequests((await heldBy(env, user.id))!.counts)).toBe(0);
  });
});
