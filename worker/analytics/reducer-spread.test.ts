import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { productVersions, users } from "../db/schema";
import { syncCustomerState } from "../delivery/sync";
import type { Env } from "../env";
import { heldRequests } from "../models/held-counts";
import { analyticsRows, recentRowsFor, userStats, withUnsettledRows } from "../models/usage";
import { getUser } from "../models/users";
import {
  createCustomerOnPlan,
  createVerifiedCustomer,
  db,
  deliverAnalytics,
  pageViewEvent as view,
  withFailingReducer,
} from "../test/helpers";
import { foldPendingAnalytics } from "./fold";
import { heldBy, reducerShardOf, reducerShardsOf, reducerSlices, settleCounters } from "./reducer-shards";

/** 32 reducers: a customer without a limit spreads over 4 of them. */
const E: Env = { ...env, ANALYTICS_REDUCER_SHARDS: "32" };
const URLS = Array.from({ length: 40 }, (_, i) => `https://shop.test/p${i}`);

const count = async (sql: string, ...params: unknown[]) =>
  Number(
    await env.DB.prepare(sql)
      .bind(...params)
      .first("n"),
  );
const counted = (userId: string) =>
  count("select coalesce(sum(total_requests), 0) as n from usage_counters where user_id = ?", userId);
const pendingViews = () => count("select coalesce(sum(views), 0) as n from analytics_pending");

/** The views each of the customer's shards holds, in the order of `reducerShardsOf`. */
async function heldByShard(userId: string): Promise<number[]> {
  const held = await heldBy(E, userId);
  return reducerShardsOf(E, userId).map((shard) => {
    const peek = held?.peeks.find((p) => p.shard === shard);
    return peek ? heldRequests(peek.counts) : 0;
  });
}

const unlimitedCustomer = () => createCustomerOnPlan({ dynamicContentLimit: null });

/** Moves the customer to a new plan that limits their content to `limit` deliveries a period. */
async function limitTo(userId: string, limit: number) {
  const [limited] = await db()
    .insert(productVersions)
    .values({ name: `Plan ${crypto.randomUUID()}`, dynamicContentLimit: limit })
    .returning();
  await db().update(users).set({ productVersionId: limited!.id }).where(eq(users.id, userId));
  await syncCustomerState(env, userId);
}

describe("a customer's pages spread over reducers", () => {
  it("spreads a customer without a limit over their shards by URL; reads add every shard's views, settles count them once", async () => {
    expect(reducerSlices(E)).toBe(4);
    const { user } = await unlimitedCustomer();
    await deliverAnalytics(URLS.map((url) => view(user.id, url)));
    await foldPendingAnalytics(E);

    const byShard = await heldByShard(user.id);
    expect(byShard.filter((n) => n > 0).length).toBeGreaterThan(1);
    expect(byShard.reduce((a, b) => a + b)).toBe(URLS.length);
    const customer = (await getUser(db(), user.id))!;
    expect((await userStats(db(), customer, await heldBy(E, user.id))).totalRequests).toBe(URLS.length);
    expect(await counted(user.id)).toBe(0);

    await settleCounters(E, [user.id]);
    expect(await counted(user.id)).toBe(URLS.length);
    expect(await heldByShard(user.id)).toEqual([0, 0, 0, 0]);
    expect((await userStats(db(), customer, await heldBy(E, user.id))).totalRequests).toBe(URLS.length);
  });

  it("keeps a metered customer's views in their own shard, where their visitors and limit are judged", async () => {
    const { user } = await createVerifiedCustomer("metered@example.com");
    await deliverAnalytics(URLS.map((url) => view(user.id, url)));
    await foldPendingAnalytics(E);
    expect(await heldByShard(user.id)).toEqual([URLS.length, 0, 0, 0]);
  });

  it("keeps only the views a failing shard was sent waiting, and hands them over once when it is back", async () => {
    const spread = await unlimitedCustomer();
    const failing = reducerShardsOf(E, spread.user.id)[1]!;
    // A metered customer whose shards include the failing one, not as their own: it gets only a share of their room.
    let metered = await createVerifiedCustomer(`m${crypto.randomUUID()}@example.com`);
    while (reducerShardOf(E, metered.user.id) === failing || !reducerShardsOf(E, metered.user.id).includes(failing)) {
      metered = await createVerifiedCustomer(`m${crypto.randomUUID()}@example.com`);
    }
    const { broken } = withFailingReducer(E, failing, () => true);
    await deliverAnalytics([
      ...URLS.map((url) => view(spread.user.id, url)),
      view(metered.user.id, "https://metered.test/a"),
    ]);

    expect(await foldPendingAnalytics(broken)).toBe(1);
    expect(await pendingViews()).toBe(URLS.length);
    await foldPendingAnalytics(E);
    expect(await pendingViews()).toBe(0);
    await settleCounters(E, [spread.user.id, metered.user.id]);
    expect(await counted(spread.user.id)).toBe(URLS.length);
    expect(await counted(metered.user.id)).toBe(1);
  });

  it("hands a range over again in the parts it began with, though the customer got a limit in between", async () => {
    const { user } = await unlimitedCustomer();
    const { broken } = withFailingReducer(E, reducerShardsOf(E, user.id)[2]!, () => true);
    await deliverAnalytics(URLS.map((url) => view(user.id, url)));
    expect(await foldPendingAnalytics(broken)).toBe(0);

    await limitTo(user.id, 1_000_000);
    await foldPendingAnalytics(E);
    expect(await pendingViews()).toBe(0);
    await settleCounters(E, [user.id]);
    expect(await counted(user.id)).toBe(URLS.length);
  });

  it("settles views spread before the customer had a limit once their room is small, so the limit still holds", async () => {
    const { user } = await unlimitedCustomer();
    await deliverAnalytics(URLS.map((url) => view(user.id, url)));
    await foldPendingAnalytics(E);
    const before = await heldByShard(user.id);
    expect(before.slice(1).every((n) => n > 0)).toBe(true);

    await limitTo(user.id, 50);
    await deliverAnalytics([view(user.id, "https://shop.test/new")]);
    await foldPendingAnalytics(E);

    // The other shards' shares of 50 are 50 / 4 / 3 each: what they held from before is settled.
    const after = await heldByShard(user.id);
    expect(after.slice(1)).toEqual([0, 0, 0]);
    expect(after[0]).toBe(before[0]! + 1);
    expect(await counted(user.id)).toBe(URLS.length - before[0]!);
  });

  it("lists hits per URL with every shard's held views, row for row as a settle then shows, writing nothing", async () => {
    const { user } = await unlimitedCustomer();
    const t = Date.now() - 60_000;
    await deliverAnalytics(URLS.slice(0, 12).map((url, i) => view(user.id, url, { timestamp: t + i })));
    await foldPendingAnalytics(E);
    await settleCounters(E, [user.id]);
    // Newer views of rows counted already, in several shards: the first page newest first takes them in.
    await deliverAnalytics(URLS.slice(0, 6).map((url, i) => view(user.id, url, { timestamp: t + 1_000 + i })));
    await foldPendingAnalytics(E);
    expect((await heldByShard(user.id)).filter((n) => n > 0).length).toBeGreaterThan(1);

    const writes = () => count("select count(*) as n from reducer_checkpoints where user_id = ?", user.id);
    const checkpoints = await writes();
    const overlaid = [];
    for (const query of [
      { limit: 4, offset: 0 },
      { limit: 4, offset: 0, sortBy: "url" as const },
    ]) {
      const page = await analyticsRows(db(), user.id, query);
      const held = await heldBy(
        E,
        user.id,
        page.rows.map((r) => r.url),
        recentRowsFor(query),
      );
      const shown = await withUnsettledRows(db(), user.id, page, held!, query);
      overlaid.push(typeof shown === "string" ? shown : shown.rows);
    }
    expect(await writes()).toBe(checkpoints);
    expect(await counted(user.id)).toBe(12);

    await settleCounters(E, [user.id]);
    expect(await counted(user.id)).toBe(18);
    expect(overlaid).toEqual([
      (await analyticsRows(db(), user.id, { limit: 4, offset: 0 })).rows,
      (await analyticsRows(db(), user.id, { limit: 4, offset: 0, sortBy: "url" })).rows,
    ]);
  });
});
