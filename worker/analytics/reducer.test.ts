import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { Stats } from "#contract/responses";
import type { HandoffPart, HeldSum } from "../messages/analytics";
import {
  call,
  createAdmin,
  createCustomerOnPlan,
  createVerifiedCustomer,
  deliverAnalytics,
  pageViewEvent as view,
  whileWritesFail,
} from "../test/helpers";
import { foldPendingAnalytics } from "./fold";
import type { AnalyticsReducer } from "./reducer";
import { reducerOf, reducerShardOf, reducerShards, settleCounters } from "./reducer-shards";
import { type HeldSums, MAX_HELD_SUMS } from "./reducer-sums";
import { HOLD_MAX_SUMS } from "./sum-runs";
import { VISITOR_DAILY_QUOTA, VisitorCounts } from "./reducer-visitors";
import { stateKey } from "../delivery/keys";
import type { CustomerState } from "../delivery/store";

const count = async (sql: string, ...params: unknown[]) =>
  Number(
    await env.DB.prepare(sql)
      .bind(...params)
      .first("n"),
  );

/** What the counters hold of a customer: their row's total, and their URLs' hits. */
const countedFor = async (userId: string) => ({
  total: await count("select coalesce(sum(total_requests), 0) as n from usage_counters where user_id = ?", userId),
  urls: await count("select coalesce(sum(hits), 0) as n from url_stats where user_id = ?", userId),
});

/** One view as a reducer holds it, of one of seven pages. */
const heldSum = (userId: string, i: number): HeldSum => ({
  userId,
  url: `shop.test/p${i % 7}`,
  day: new Date().toISOString().slice(0, 10),
  mappingId: null,
  crawler: 0,
  n: 1,
  delivered: 1,
  timestamp: Date.now(),
});

/** A part of a handoff of these sums alone. */
const part = (sums: HeldSum[]): HandoffPart => ({ sums, tallies: [], periodEnds: {}, headroom: {} });

/** A customer whose plan limits nothing. */
const unlimitedCustomer = () => createCustomerOnPlan({ dynamicContentLimit: null });

/** Every reducer as after a restart: what it holds is read back from its log and D1's checkpoints. */
async function restartReducers() {
  for (let shard = 0; shard < reducerShards(env); shard++) {
    await runInDurableObject(reducerOf(env, shard), (reducer: AnalyticsReducer) => {
      Object.assign(reducer, { held: null, visitors: null });
    });
  }
}

describe("analytics reducers", () => {
  it("hold customers' views past the minute's fold, limited or not, and count them once their URLs' counters are read", async () => {
    const unlimited = await unlimitedCustomer();
    const metered = await createVerifiedCustomer("metered@example.com");
    const id = unlimited.user.id;
    await deliverAnalytics([
      view(id, "https://shop.test/a"),
      view(id, "https://shop.test/a"),
      view(id, "https://shop.test/b"),
      view(metered.user.id, "https://shop.test/a"),
    ]);
    expect(await foldPendingAnalytics(env)).toBe(4);
    // A limit far away (the Free plan's 1,000) does not need their counts yet.
    expect(await countedFor(metered.user.id)).toEqual({ total: 0, urls: 0 });
    expect(await countedFor(id)).toEqual({ total: 0, urls: 0 });
    expect(await count("select count(*) as n from analytics_pending")).toBe(0);
    expect(await count("select count(*) as n from analytics_handoffs")).toBe(0);

    await deliverAnalytics([view(id, "https://shop.test/a"), view(id, "https://shop.test/c")]);
    await foldPendingAnalytics(env);
    expect(await countedFor(id)).toEqual({ total: 0, urls: 0 });

    const res = await call("/api/user/stats", { apiKey: unlimited.apiKey });
    expect(((await res.json()) as Stats).totalRequests).toBe(5);
    // The totals add what the reducer holds (held-counts.test.ts); the hits per URL of URLs without a row yet are
    // settled first.
    expect(await countedFor(id)).toEqual({ total: 0, urls: 0 });
    expect((await call("/api/analytics", { apiKey: unlimited.apiKey })).status).toBe(200);
    expect(await countedFor(id)).toEqual({ total: 5, urls: 5 });
    expect(await count("select count(*) as n from url_stats where user_id = ?", id)).toBe(3);
    expect(await count("select count(*) as n from reducer_checkpoints where user_id = ?", id)).toBe(1);

    await settleCounters(env, "all");
    await foldPendingAnalytics(env);
    expect(await countedFor(id)).toEqual({ total: 5, urls: 5 });
    expect(await countedFor(metered.user.id)).toEqual({ total: 1, urls: 1 });
  });

  it("are asked once by a screen's reads within a few seconds, which show what they answered until a settle counts more", async () => {
    const { user, apiKey } = await unlimitedCustomer();
    const totalRequests = async () =>
      ((await (await call("/api/user/stats", { apiKey })).json()) as Stats).totalRequests;
    await deliverAnalytics([view(user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);
    expect(await totalRequests()).toBe(1);

    await deliverAnalytics([view(user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);
    // Within SETTLED_FOR_MS of the first read: the reducer is not asked again.
    expect(await totalRequests()).toBe(1);
    await settleCounters(env, [user.id]);
    expect(await totalRequests()).toBe(2);
  });

  it("are asked to settle by no read of the mappings: the list and the export add what they hold (held-counts.test.ts)", async () => {
    const { user, apiKey } = await unlimitedCustomer();
    await deliverAnalytics([view(user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);
    for (const path of [
      "/api/mappings/match?url=https://shop.test/a",
      "/api/mappings/deleted",
      "/api/mappings",
      "/api/mappings/export?format=json",
    ]) {
      const res = await call(path, { apiKey });
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(await countedFor(user.id)).toEqual({ total: 0, urls: 0 });
  });

  it("are asked by an admin's lists for the customers shown, and for everyone when the order is by requests", async () => {
    const admin = await createAdmin();
    const first = await unlimitedCustomer();
    const second = await unlimitedCustomer();
    const mapping = await call("/api/mappings", {
      method: "POST",
      apiKey: first.apiKey,
      json: { url: "https://shop.test/a", htmlContent: "<p>a</p>" },
    });
    const { id } = (await mapping.json()) as { id: number };
    await deliverAnalytics([view(first.user.id, "https://shop.test/a"), view(second.user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);

    // A mapping opened from a list settles its owner only.
    expect((await call(`/api/admin/mappings/${id}`, { apiKey: admin.apiKey })).status).toBe(200);
    expect(await countedFor(first.user.id)).toEqual({ total: 1, urls: 1 });
    expect(await countedFor(second.user.id)).toEqual({ total: 0, urls: 0 });

    // A page of users in the order of sign-up settles the page's: here the newest one, not the first customer.
    await deliverAnalytics([view(first.user.id, "https://shop.test/b")]);
    await foldPendingAnalytics(env);
    const newest = await call("/api/admin/users?limit=1", { apiKey: admin.apiKey });
    expect(((await newest.json()) as { email: string }[]).map((u) => u.email)).toEqual([second.user.email]);
    expect(await countedFor(second.user.id)).toEqual({ total: 1, urls: 1 });
    expect(await countedFor(first.user.id)).toEqual({ total: 1, urls: 1 });

    // In the order of their requests, every customer's count decides the page.
    const byRequests = await call("/api/admin/users?limit=1&sortBy=totalRequests&sortDirection=desc", {
      apiKey: admin.apiKey,
    });
    expect(((await byRequests.json()) as { email: string }[]).map((u) => u.email)).toEqual([first.user.email]);
    expect(await countedFor(first.user.id)).toEqual({ total: 2, urls: 2 });
  });

  it("hold again after a restart only what they had not settled", async () => {
    const first = await unlimitedCustomer();
    const second = await unlimitedCustomer();
    await deliverAnalytics([view(first.user.id, "https://shop.test/a"), view(second.user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);
    await settleCounters(env, [first.user.id]);
    expect(await countedFor(first.user.id)).toEqual({ total: 1, urls: 1 });
    expect(await countedFor(second.user.id)).toEqual({ total: 0, urls: 0 });

    await restartReducers();
    await deliverAnalytics([view(first.user.id, "https://shop.test/b")]);
    await foldPendingAnalytics(env);
    await settleCounters(env, "all");
    expect(await countedFor(first.user.id)).toEqual({ total: 2, urls: 2 });
    expect(await countedFor(second.user.id)).toEqual({ total: 1, urls: 1 });

    await restartReducers();
    await settleCounters(env, "all");
    expect(await countedFor(first.user.id)).toEqual({ total: 2, urls: 2 });
    expect(await countedFor(second.user.id)).toEqual({ total: 1, urls: 1 });
  });

  it("keep what they could not settle when D1 fails, and count it once on the next read", async () => {
    const { user } = await unlimitedCustomer();
    await deliverAnalytics([view(user.id, "https://shop.test/a"), view(user.id, "https://shop.test/b")]);
    await foldPendingAnalytics(env);
    await whileWritesFail("reducer_checkpoints", () => settleCounters(env, [user.id]));
    expect(await countedFor(user.id)).toEqual({ total: 0, urls: 0 });
    expect(await count("select count(*) as n from analytics_pending")).toBe(0);

    await settleCounters(env, [user.id]);
    await settleCounters(env, [user.id]);
    expect(await countedFor(user.id)).toEqual({ total: 2, urls: 2 });
  });

  it("take the same range again, and count it once, when the fold after the handoff fails", async () => {
    const unlimited = await unlimitedCustomer();
    const metered = await createVerifiedCustomer("metered@example.com");
    await deliverAnalytics([
      view(unlimited.user.id, "https://shop.test/a"),
      view(metered.user.id, "https://shop.test/a"),
    ]);
    await expect(whileWritesFail("analytics_handoffs", () => foldPendingAnalytics(env), "delete")).rejects.toThrow(
      /disk full/,
    );
    // Handed over to the reducer, but the range is still pending and so is its handoff.
    expect(await count("select count(*) as n from analytics_handoffs")).toBe(1);
    expect(await count("select coalesce(sum(views), 0) as n from analytics_pending")).toBe(2);

    await deliverAnalytics([view(unlimited.user.id, "https://shop.test/b")]);
    expect(await foldPendingAnalytics(env)).toBe(3);
    expect(await count("select count(*) as n from analytics_handoffs")).toBe(0);
    await settleCounters(env, "all");
    expect(await countedFor(unlimited.user.id)).toEqual({ total: 2, urls: 2 });
    expect(await countedFor(metered.user.id)).toEqual({ total: 1, urls: 1 });
  });

  it("take a range of more distinct URLs than a part holds in parts, and count each once when it is handed over again", async () => {
    const unlimited = await unlimitedCustomer();
    const metered = await createVerifiedCustomer("metered@example.com");
    const urls = HOLD_MAX_SUMS + 1;
    const views = Array.from({ length: urls }, (_, i) => view(unlimited.user.id, `https://shop.test/p${i}`));
    for (let i = 0; i < views.length; i += 100) await deliverAnalytics(views.slice(i, i + 100));
    await deliverAnalytics([view(metered.user.id, "https://shop.test/a")]);
    await expect(whileWritesFail("analytics_handoffs", () => foldPendingAnalytics(env), "delete")).rejects.toThrow(
      /disk full/,
    );
    expect(await foldPendingAnalytics(env)).toBe(urls + 1);
    await settleCounters(env, "all");
    expect(await countedFor(unlimited.user.id)).toEqual({ total: urls, urls });
    expect(await countedFor(metered.user.id)).toEqual({ total: 1, urls: 1 });
  });

  it("keep every part and stored row of sums under 2 MB however long the URLs, and count each once", async () => {
    const unlimited = await unlimitedCustomer();
    // 1,200 URLs of about 2,000 characters: about 2.6 MB of sums, more than D1 or a reducer takes in one value.
    const urls = 1_200;
    const long = (i: number) => `https://shop.test/${String(i).padStart(6, "0")}${"x".repeat(1_980)}`;
    const views = Array.from({ length: urls }, (_, i) => view(unlimited.user.id, long(i)));
    for (let i = 0; i < views.length; i += 100) await deliverAnalytics(views.slice(i, i + 100));
    expect(await foldPendingAnalytics(env)).toBe(urls);
    await settleCounters(env, "all");
    expect(await countedFor(unlimited.user.id)).toEqual({ total: urls, urls });
    expect(await count("select count(*) as n from analytics_pending")).toBe(0);
  }, 30_000);

  it("settle many customers in groups, and count each once when a later group fails", async () => {
    // Two customers of one shard: the first with about 4.4 MB of sums' JSON, a group of its own.
    const big = await unlimitedCustomer();
    let small = await unlimitedCustomer();
    const shard = reducerShardOf(env, big.user.id);
    while (reducerShardOf(env, small.user.id) !== shard) small = await unlimitedCustomer();
    const urls = 2_000;
    const sums = Array.from({ length: urls }, (_, i) => ({
      ...heldSum(big.user.id, i),
      url: `shop.test/${String(i).padStart(6, "0")}${"x".repeat(1_990)}`,
    }));
    const reducer = reducerOf(env, shard);
    await reducer.hold(shard, 10, 0, part(sums));
    await reducer.hold(shard, 10, 1, part([heldSum(small.user.id, 1)]));
    const failSmall = `create trigger fail_small before insert on reducer_checkpoints when new.user_id = '${small.user.id}'
      begin select raise(abort, 'disk full'); end`;
    await env.DB.prepare(failSmall).run();
    try {
      // The reducer cannot settle the second group: the reader logs it and shows what was counted.
      await settleCounters(env, [big.user.id, small.user.id]);
    } finally {
      await env.DB.prepare("drop trigger fail_small").run();
    }
    expect(await countedFor(big.user.id)).toEqual({ total: urls, urls });
    expect(await countedFor(small.user.id)).toEqual({ total: 0, urls: 0 });

    await settleCounters(env, [big.user.id, small.user.id]);
    expect(await countedFor(big.user.id)).toEqual({ total: urls, urls });
    expect(await countedFor(small.user.id)).toEqual({ total: 1, urls: 1 });
  }, 30_000);

  it("hand over, in later parts, the customers that a handoff begun before limited customers were held did not list", async () => {
    const unlimited = await unlimitedCustomer();
    const metered = await createVerifiedCustomer("metered@example.com");
    await deliverAnalytics([
      view(unlimited.user.id, "https://shop.test/a"),
      view(metered.user.id, "https://shop.test/a"),
    ]);
    const seq = await count("select seq as n from analytics_pending");
    // The earlier code listed the customers without a limit, and its reducer took their part before the cron stopped.
    await env.DB.prepare("insert into analytics_handoffs (from_seq, to_seq, customers) values (?, ?, ?)")
      .bind(seq, seq, JSON.stringify([unlimited.user.id]))
      .run();
    const shard = reducerShardOf(env, unlimited.user.id);
    const sum = { ...heldSum(unlimited.user.id, 0), url: "shop.test/a" };
    await reducerOf(env, shard).hold(shard, seq, 0, part([sum]));

    expect(await foldPendingAnalytics(env)).toBe(2);
    await settleCounters(env, "all");
    expect(await countedFor(unlimited.user.id)).toEqual({ total: 1, urls: 1 });
    expect(await countedFor(metered.user.id)).toEqual({ total: 1, urls: 1 });
  });

  it("settle everything at their cap, and say so in the log with how many times that day", async () => {
    const { user } = await unlimitedCustomer();
    const shard = reducerShardOf(env, user.id);
    const reducer = reducerOf(env, shard);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      for (const [handoff, times] of [
        [10, 1],
        [11, 2],
      ] as const) {
        await reducer.hold(shard, handoff, 0, part([heldSum(user.id, handoff)]));
        expect(await countedFor(user.id)).toEqual({ total: times - 1, urls: times - 1 });
        // As if the reducer held one sum more than its cap: the next part settles all it holds.
        const heldOf = (object: AnalyticsReducer) => (object as unknown as { held: HeldSums }).held;
        await runInDurableObject(reducer, (object: AnalyticsReducer) => {
          Object.defineProperty(heldOf(object), "size", { get: () => MAX_HELD_SUMS + 1, configurable: true });
        });
        await reducer.hold(shard, handoff, 1, part([]));
        await runInDurableObject(reducer, (object: AnalyticsReducer) => {
          delete (heldOf(object) as { size?: number }).size;
        });
        expect(await countedFor(user.id)).toEqual({ total: times, urls: times });
        const logged = String(warn.mock.calls.at(-1)?.[0]);
        expect(logged).toMatch(`Reducer ${shard} reached its cap (${MAX_HELD_SUMS + 1} sums in `);
        expect(logged).toMatch(`settles everything it holds, ${times} times today (UTC)`);
      }
    } finally {
      warn.mockRestore();
    }
  });

  it("count the later parts of a handoff that a settle came between", async () => {
    const { user } = await unlimitedCustomer();
    const shard = reducerShardOf(env, user.id);
    const reducer = reducerOf(env, shard);
    await reducer.hold(shard, 10, 0, part([heldSum(user.id, 1)]));
    await settleCounters(env, [user.id]);
    await reducer.hold(shard, 10, 1, part([heldSum(user.id, 2)]));
    await settleCounters(env, [user.id]);
    expect(await countedFor(user.id)).toEqual({ total: 2, urls: 2 });

    await restartReducers();
    await settleCounters(env, [user.id]);
    expect(await countedFor(user.id)).toEqual({ total: 2, urls: 2 });
  });

  it("rewrite their log as what they hold as it grows, between the parts of a handoff too, and read it back", async () => {
    const { user } = await unlimitedCustomer();
    const shard = reducerShardOf(env, user.id);
    const reducer = reducerOf(env, shard);
    const sum = (handoff: number) => heldSum(user.id, handoff);
    // 200 log rows, then a handoff in two parts whose first part makes the log rewrite itself.
    for (let handoff = 1; handoff <= 200; handoff++) await reducer.hold(shard, handoff, 0, part([sum(handoff)]));
    await reducer.hold(shard, 201, 0, part([sum(201)]));
    await reducer.hold(shard, 201, 1, part([sum(202)]));
    await reducer.hold(shard, 201, 1, part([sum(202)]));
    const logRows = await runInDurableObject(
      reducer,
      (_: AnalyticsReducer, state: DurableObjectState) =>
        state.storage.sql.exec<{ n: number }>("select count(*) as n from held_log").one().n,
    );
    expect(logRows).toBe(2);

    await restartReducers();
    await settleCounters(env, [user.id]);
    expect(await countedFor(user.id)).toEqual({ total: 202, urls: 202 });
    expect(await count("select count(*) as n from url_stats where user_id = ?", user.id)).toBe(7);
  });

  it("settle a limited customer with the fold, unasked, once what they hold could reach the limit, and not again past it", async () => {
    const { user } = await createCustomerOnPlan({ dynamicContentLimit: 3 });
    const limited = async () => (await env.DELIVERY.get<CustomerState>(stateKey(user.id), "json"))?.limited;
    await deliverAnalytics([view(user.id, "https://shop.test/a"), view(user.id, "https://shop.test/b")]);
    await foldPendingAnalytics(env);
    expect(await countedFor(user.id)).toEqual({ total: 0, urls: 0 });

    await deliverAnalytics([view(user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);
    expect(await countedFor(user.id)).toEqual({ total: 3, urls: 3 });
    expect(await limited()).toBe(true);

    // Past the limit nothing is left to check: the views wait to be read again.
    await deliverAnalytics([view(user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);
    expect(await countedFor(user.id)).toEqual({ total: 3, urls: 3 });
  });

  it("settle what they hold of a customer whose plan now has a limit once it could be reached", async () => {
    const { user } = await unlimitedCustomer();
    await deliverAnalytics([view(user.id, "https://shop.test/a"), view(user.id, "https://shop.test/b")]);
    await foldPendingAnalytics(env);
    expect(await countedFor(user.id)).toEqual({ total: 0, urls: 0 });

    await env.DB.prepare("update users set request_limit = 3 where id = ?").bind(user.id).run();
    await deliverAnalytics([view(user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);
    // The limit is checked against all three: the two held from before it and the new one.
    expect(await countedFor(user.id)).toEqual({ total: 3, urls: 3 });
  });

  it("keep each visitor's budget across a restart", async () => {
    const { user } = await createCustomerOnPlan({ dynamicContentLimit: 100_000 });
    const visit = () => ({ ...view(user.id, "https://shop.test/a"), visitor: "v1" });
    await deliverAnalytics(Array.from({ length: VISITOR_DAILY_QUOTA - 10 }, visit));
    await foldPendingAnalytics(env);
    await restartReducers();
    await deliverAnalytics(Array.from({ length: 30 }, visit));
    await foldPendingAnalytics(env);
    await restartReducers();
    await settleCounters(env, [user.id]);
    const counters = await env.DB.prepare(
      "select period_deliveries as billed, period_unbilled_deliveries as unbilled from usage_counters where user_id = ?",
    )
      .bind(user.id)
      .first();
    expect(counters).toEqual({ billed: VISITOR_DAILY_QUOTA, unbilled: 20 });
  });

  it("keep the budget of a visitor past the visitors' cap across restarts and a rewrite of the log", async () => {
    const { user } = await createCustomerOnPlan({ dynamicContentLimit: 100_000 });
    const reducer = reducerOf(env, reducerShardOf(env, user.id));
    // A reducer whose table is full from the start: every visitor is counted in the day's overflow sketch.
    await runInDurableObject(reducer, (object: AnalyticsReducer) => {
      Object.assign(object, { visitors: new VisitorCounts(0) });
    });
    const rows = () =>
      runInDurableObject(reducer, (_: AnalyticsReducer, state: DurableObjectState) =>
        ["visitor_log", "visitor_overflow", "visitor_overflow_log"].map(
          (table) => state.storage.sql.exec<{ n: number }>(`select count(*) as n from ${table}`).one().n,
        ),
      );
    const visit = () => ({ ...view(user.id, "https://shop.test/a"), visitor: "v1" });
    await deliverAnalytics(Array.from({ length: VISITOR_DAILY_QUOTA - 10 }, visit));
    await foldPendingAnalytics(env);
    // The day's first handoff rewrote the log: the sketch's counters, no triples.
    const [tableRows, sketchRows] = await rows();
    expect(tableRows).toBe(0);
    expect(sketchRows).toBeGreaterThan(0);
    await restartReducers();
    await deliverAnalytics(Array.from({ length: 30 }, visit));
    await foldPendingAnalytics(env);
    // Read back as a sketch (not a new visitor of a table with room), and logged as overflow since.
    expect((await rows())[2]).toBe(1);
    await restartReducers();
    await settleCounters(env, [user.id]);
    const counters = await env.DB.prepare(
      "select period_deliveries as billed, period_unbilled_deliveries as unbilled from usage_counters where user_id = ?",
    )
      .bind(user.id)
      .first();
    expect(counters).toEqual({ billed: VISITOR_DAILY_QUOTA, unbilled: 20 });
  });

  it("settle a customer whose billing period ends within minutes with the fold, unasked", async () => {
    const { user } = await unlimitedCustomer();
    await env.DB.prepare("update users set billing_period_end = ? where id = ?")
      .bind(Date.now() + 60_000, user.id)
      .run();
    await deliverAnalytics([view(user.id, "https://shop.test/a")]);
    await foldPendingAnalytics(env);
    expect(await countedFor(user.id)).toEqual({ total: 1, urls: 1 });
  });
});
