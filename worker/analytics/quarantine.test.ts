/**
 * Issue 38, point 1: no customer's rows stop anyone else's counting (P-1), and a reducer that keeps failing its
 * handoff does not stop the reducers' settled sums from being counted (performance review, risk 2).
 */
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminMapping, AdminOverview } from "#contract/responses";
import type { HeldSum } from "../messages/analytics";
import {
  call,
  createAdmin,
  createVerifiedCustomer,
  deliverAnalytics,
  pageViewEvent as view,
  postAbTest,
  withFailingReducer,
} from "../test/helpers";
import { foldPendingAnalytics } from "./fold";
import { QUARANTINE_RETRIES } from "./quarantine";
import { reducerShardOf, settleCounters } from "./reducer-shards";

/** What the review stored: "[" × 1,100 + "{}" + "]" × 1,100, deeper than SQLite's JSON functions read. */
const POISON = "[".repeat(1_100) + "{}" + "]".repeat(1_100);

const count = async (sql: string, ...params: unknown[]) =>
  Number(
    await env.DB.prepare(sql)
      .bind(...params)
      .first("n"),
  );

const totalOf = (userId: string) =>
  count("select coalesce(sum(total_requests), 0) as n from usage_counters where user_id = ?", userId);

const sum = (userId: string, n: number): HeldSum => ({
  userId,
  url: "shop.test/a",
  day: new Date().toISOString().slice(0, 10),
  mappingId: null,
  crawler: 0,
  n,
  delivered: n,
  timestamp: Date.now(),
});

/** A reducer's settled row of these sums, as a settle writes it for the fold to count. */
async function settledRow(sums: HeldSum[]) {
  await env.DB.prepare("insert into analytics_pending (batch, views, events, reduced) values (?, ?, ?, 1)")
    .bind(
      `test-${crypto.randomUUID()}`,
      sums.reduce((n, s) => n + s.n, 0),
      JSON.stringify(sums),
    )
    .run();
}

/** Makes every write of the customer's counters fail, as rows SQLite cannot read would. */
async function poisonCounters(userId: string) {
  for (const write of ["insert", "update"]) {
    await env.DB.prepare(
      `create trigger poison_${write} before ${write} on usage_counters when new.user_id = '${userId}'
       begin select raise(abort, 'malformed JSON'); end`,
    ).run();
  }
}

async function curePoison() {
  for (const write of ["insert", "update"]) await env.DB.prepare(`drop trigger poison_${write}`).run();
}

async function overview(apiKey: string) {
  const res = await call("/api/admin/overview", { apiKey });
  expect(res.status).toBe(200);
  return ((await res.json()) as AdminOverview).analytics;
}

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => warn.mockRestore());

describe("a customer whose rows fail the fold", () => {
  it("P-1: an experiment and a JSON-LD nested 1,100 levels, stored before the cap, fail nobody's counting or lists", async () => {
    const evil = await createVerifiedCustomer("evil@example.com");
    const third = await createVerifiedCustomer("third@example.com");
    const admin = await createAdmin();
    const created = await postAbTest(evil.apiKey, "https://evil.test/a", ["buy"]);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    // As rows written before the cap: a variant's SEO and the mapping's own JSON-LD, nested too deep for SQLite.
    const experiment = (await env.DB.prepare("select experiment from url_mappings where id = ?").bind(id).first<{
      experiment: string;
    }>())!.experiment;
    const poisoned = experiment.replace('"key":"B"', `"key":"B","seo":{"jsonLd":${POISON}}`);
    expect(poisoned).not.toBe(experiment);
    await env.DB.prepare("update url_mappings set experiment = ?, seo = ? where id = ?")
      .bind(poisoned, `{"title":"T","jsonLd":${POISON}}`, id)
      .run();
    expect(await count("select json_valid(experiment) as n from url_mappings where id = ?", id)).toBe(0);

    await deliverAnalytics([
      view(evil.user.id, "https://evil.test/a", { mappingId: id, experiment: "x", variant: "B", vid: "v1" }),
      view(third.user.id, "https://big.test/csv1"),
      view(third.user.id, "https://big.test/csv1"),
    ]);
    await foldPendingAnalytics(env);
    await settleCounters(env, "all");
    expect(await totalOf(third.user.id)).toBe(2);
    expect(await totalOf(evil.user.id)).toBe(1);
    expect(await count("select count(*) as n from analytics_pending")).toBe(0);

    const list = await call("/api/admin/mappings", { apiKey: admin.apiKey });
    expect(list.status).toBe(200);
    const mapping = ((await list.json()) as AdminMapping[]).find((m) => m.id === id)!;
    expect(mapping.seo).toEqual({ title: "T" });
    expect((await call(`/api/admin/users/${evil.user.id}`, { apiKey: admin.apiKey })).status).toBe(200);
    expect((await call(`/api/admin/users/${evil.user.id}/mappings`, { apiKey: admin.apiKey })).status).toBe(200);
  });

  it("is set aside, logged once and shown to admins; everyone else is counted that minute; an admin's release counts them once", async () => {
    const evil = await createVerifiedCustomer("evil@example.com");
    const third = await createVerifiedCustomer("third@example.com");
    const admin = await createAdmin();
    await poisonCounters(evil.user.id);
    await settledRow([sum(evil.user.id, 3), sum(third.user.id, 5)]);

    await foldPendingAnalytics(env);
    expect(await totalOf(third.user.id)).toBe(5);
    expect(await totalOf(evil.user.id)).toBe(0);
    expect(await count("select count(*) as n from analytics_pending")).toBe(0);
    expect(await count("select coalesce(sum(views), 0) as n from analytics_quarantine")).toBe(3);
    const logged = () => warn.mock.calls.filter((args: unknown[]) => String(args[0]).includes(evil.user.id)).length;
    expect(logged()).toBe(1);

    const health = await overview(admin.apiKey);
    expect(health.quarantinedCustomers).toBe(1);
    expect(health.quarantined).toEqual([
      expect.objectContaining({ userId: evil.user.id, email: "evil@example.com", views: 3, retrying: true }),
    ]);
    expect(health.quarantined[0]!.reason).toMatch(/malformed JSON/);

    // Still failing: every automatic retry sets them aside again, and only the last is logged.
    let now = Date.now();
    for (let attempt = 2; attempt <= QUARANTINE_RETRIES; attempt++) {
      now += attempt * 60_000;
      await settledRow([sum(third.user.id, 1)]);
      await foldPendingAnalytics(env, new Date(now));
    }
    expect(await totalOf(third.user.id)).toBe(5 + QUARANTINE_RETRIES - 1);
    expect(logged()).toBe(2);
    expect((await overview(admin.apiKey)).quarantined[0]).toMatchObject({ views: 3, retrying: false });
    await foldPendingAnalytics(env, new Date(now + 3_600_000));
    expect(await count("select coalesce(sum(views), 0) as n from analytics_quarantine")).toBe(3);

    await curePoison();
    const released = await call(`/api/admin/analytics/quarantine/${evil.user.id}/release`, {
      method: "POST",
      apiKey: admin.apiKey,
    });
    expect(released.status).toBe(200);
    await foldPendingAnalytics(env);
    await foldPendingAnalytics(env);
    expect(await totalOf(evil.user.id)).toBe(3);
    expect((await overview(admin.apiKey)).quarantined).toEqual([]);
    const again = await call(`/api/admin/analytics/quarantine/${evil.user.id}/release`, {
      method: "POST",
      apiKey: admin.apiKey,
    });
    expect(again.status).toBe(404);
  });

  it("is set aside a pending row at a time, however many megabytes of theirs a range holds", async () => {
    const evil = await createVerifiedCustomer("evil@example.com");
    const third = await createVerifiedCustomer("third@example.com");
    await poisonCounters(evil.user.id);
    // Two settled rows of 3,000 sums with 300-character URLs, about 1.3 MB each: together past D1's 2 MB a value.
    const long = (row: number, i: number) => ({
      ...sum(evil.user.id, 1),
      url: `evil.test/${row}/${i}/${"x".repeat(300)}`,
    });
    for (const row of [0, 1]) await settledRow(Array.from({ length: 3_000 }, (_, i) => long(row, i)));
    await settledRow([sum(third.user.id, 5)]);

    await foldPendingAnalytics(env);
    expect(await totalOf(third.user.id)).toBe(5);
    expect(await count("select count(*) as n from analytics_pending")).toBe(0);
    expect(await count("select count(*) as n from analytics_quarantine where user_id = ?", evil.user.id)).toBe(2);
    expect(await count("select coalesce(sum(views), 0) as n from analytics_quarantine")).toBe(6_000);
    expect(await count("select max(length(events)) as n from analytics_quarantine")).toBeLessThan(2_000_000);
  });

  it("is set aside by a reducer's settle too, so the reader who asked sees everyone else counted", async () => {
    const third = await createVerifiedCustomer("third@example.com");
    // Two customers of one reducer, whose settle writes one range for both.
    let evil = await createVerifiedCustomer("evil0@example.com");
    for (let i = 1; reducerShardOf(env, evil.user.id) !== reducerShardOf(env, third.user.id); i++) {
      evil = await createVerifiedCustomer(`evil${i}@example.com`);
    }
    await poisonCounters(evil.user.id);
    await deliverAnalytics([view(evil.user.id, "https://evil.test/a"), view(third.user.id, "https://big.test/a")]);
    await foldPendingAnalytics(env);
    await settleCounters(env, [evil.user.id, third.user.id]);
    expect(await totalOf(third.user.id)).toBe(1);
    expect(await count("select count(*) as n from analytics_pending")).toBe(0);
    expect(
      await count("select coalesce(sum(views), 0) as n from analytics_quarantine where user_id = ?", evil.user.id),
    ).toBe(1);
  });

  it("whose experiment counts fail after their views were handed off: the views are counted once, the exposures after release", async () => {
    const evil = await createVerifiedCustomer("evil@example.com");
    const third = await createVerifiedCustomer("third@example.com");
    await env.DB.prepare(
      `create trigger poison_exposures before insert on experiment_exposures when new.user_id = '${evil.user.id}'
       begin select raise(abort, 'malformed JSON'); end`,
    ).run();
    await deliverAnalytics([
      view(evil.user.id, "https://evil.test/a", { mappingId: 7, experiment: "e1", variant: "B", vid: "v1" }),
      view(evil.user.id, "https://evil.test/a", { mappingId: 7, experiment: "e1", variant: "B", vid: "v2" }),
      view(third.user.id, "https://big.test/a", { mappingId: 8, experiment: "e3", variant: "A", vid: "w1" }),
    ]);
    await foldPendingAnalytics(env);
    await settleCounters(env, "all");
    // The reducers hold (and now counted) every view; only evil's experiment events wait, marked as handed off.
    expect(await totalOf(evil.user.id)).toBe(2);
    expect(await totalOf(third.user.id)).toBe(1);
    expect(await count("select count(*) as n from experiment_exposures where user_id = ?", third.user.id)).toBe(1);
    expect(
      await count("select count(*) as n from analytics_quarantine, json_each(events) v where v.value ->> 'handed' = 1"),
    ).toBe(2);

    await env.DB.prepare("drop trigger poison_exposures").run();
    await foldPendingAnalytics(env, new Date(Date.now() + 61_000));
    await settleCounters(env, "all");
    expect(await count("select count(*) as n from analytics_quarantine")).toBe(0);
    expect(await count("select count(*) as n from experiment_exposures where user_id = ?", evil.user.id)).toBe(2);
    expect(await totalOf(evil.user.id)).toBe(2);
  });
});

/** Customers on two different reducer shards: `a`'s shard is the one that fails. */
async function customersOnTwoShards() {
  const a = await createVerifiedCustomer("a@example.com");
  for (let i = 0; ; i++) {
    const b = await createVerifiedCustomer(`b${i}@example.com`);
    if (reducerShardOf(env, b.user.id) !== reducerShardOf(env, a.user.id)) return { a, b };
  }
}

const pendingViews = () => count("select coalesce(sum(views), 0) as n from analytics_pending");

describe("a handoff whose reducer fails every time", () => {
  it("holds back only that shard's customers: everyone else is counted that minute, they once it is back", async () => {
    const { a, b } = await customersOnTwoShards();
    const admin = await createAdmin();
    const { broken } = withFailingReducer(env, reducerShardOf(env, a.user.id), () => true);

    await deliverAnalytics([
      view(a.user.id, "https://a.test/1"),
      view(a.user.id, "https://a.test/x", { mappingId: 7, experiment: "e1", variant: "B", vid: "v1" }),
      view(b.user.id, "https://b.test/1"),
    ]);
    expect(await foldPendingAnalytics(broken)).toBe(1);
    await settleCounters(env, "all");
    expect(await totalOf(b.user.id)).toBe(1);
    expect(await totalOf(a.user.id)).toBe(0);
    // The experiment's exposure is counted now; the views wait for their reducer, the experiment taken off them.
    expect(await count("select count(*) as n from experiment_exposures where user_id = ?", a.user.id)).toBe(1);
    expect(await pendingViews()).toBe(2);
    expect(
      await count(
        "select count(*) as n from analytics_pending, json_each(events) v where v.value ->> 'vid' is not null",
      ),
    ).toBe(0);
    const health = await overview(admin.apiKey);
    expect(health.failingHandoff).toMatchObject({ failures: 1, lastError: expect.stringMatching(/reducer reset/) });
    expect(health.oldestPendingSeconds).not.toBeNull();

    // A minute later, still failing: the settled sums and the other shard's new views are counted all the same.
    await settledRow([sum(b.user.id, 4)]);
    await deliverAnalytics([view(a.user.id, "https://a.test/2"), view(b.user.id, "https://b.test/2")]);
    expect(await foldPendingAnalytics(broken)).toBe(5);
    await settleCounters(env, "all");
    expect(await totalOf(b.user.id)).toBe(6);
    expect(await totalOf(a.user.id)).toBe(0);
    expect(await pendingViews()).toBe(3);
    expect((await overview(admin.apiKey)).failingHandoff).toMatchObject({ failures: 2 });

    // Back: both owed handoffs go first, in order, and every view is counted once.
    expect(await foldPendingAnalytics(env)).toBe(3);
    await settleCounters(env, "all");
    expect(await totalOf(a.user.id)).toBe(3);
    expect(await totalOf(b.user.id)).toBe(6);
    expect(await count("select count(*) as n from experiment_exposures where user_id = ?", a.user.id)).toBe(1);
    expect(await overview(admin.apiKey)).toMatchObject({ failingHandoff: null, oldestPendingSeconds: null });
  });

  it("hands the parts a reducer did not take again, and never one it took", async () => {
    const { a, b } = await customersOnTwoShards();
    const shard = reducerShardOf(env, a.user.id);
    let down = true;
    const { broken, held } = withFailingReducer(env, shard, (part) => down && part >= 1);
    // 5,001 different URLs of one customer's in one range: two parts for its reducer (HOLD_MAX_SUMS is 5,000).
    const now = Date.now();
    const day = new Date(now).toISOString().slice(0, 10);
    const views = Array.from({ length: 5_001 }, (_, i) => ({
      id: `v${i}`,
      userId: a.user.id,
      url: `a.test/${i}`,
      mappingId: null,
      delivered: true,
      timestamp: now,
      day,
      crawler: false,
      visitor: null,
    }));
    for (let i = 0; i < views.length; i += 500) {
      const events = views.slice(i, i + 500);
      await env.DB.prepare("insert into analytics_pending (batch, views, events) values (?, ?, ?)")
        .bind(`test-${i}`, events.length, JSON.stringify(events))
        .run();
    }
    await deliverAnalytics([view(b.user.id, "https://b.test/1")]);

    expect(await foldPendingAnalytics(broken)).toBe(1);
    expect(held.map((position) => position.split(":")[1])).toEqual(["0"]);
    expect(await pendingViews()).toBe(5_001);

    down = false;
    expect(await foldPendingAnalytics(broken)).toBe(5_001);
    // The same handoff, its second part only taken now: the first, taken already, is ignored by the reducer.
    expect(new Set(held.map((position) => position.split(":")[0])).size).toBe(1);
    await settleCounters(env, "all");
    expect(await totalOf(a.user.id)).toBe(5_001);
    expect(await count("select count(*) as n from url_stats where user_id = ?", a.user.id)).toBe(1_000 + 1);
    expect(await totalOf(b.user.id)).toBe(1);
  });
});
