import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Mapping } from "#contract/responses";
import type { Env } from "../env";
import { changeMapping, createMapping, deleteMapping, getMapping, listMappings } from "../models/mappings";
import { call, createVerifiedCustomer, db, deliverAnalytics, foldAnalytics, whileWritesFail } from "../test/helpers";
import { ANALYTICS_QUEUE_NAME, type AnalyticsMessage, type PageViewEvent } from "../messages/analytics";
import { listMappingGroups } from "../models/admin-mappings";
import { foldRange } from "./fold";
import type { AnalyticsReducer } from "./reducer";
import { reducerOf, reducerShards, settleCounters } from "./reducer-shards";

function message(userId: string, mappingId: number | null, url: string, id = crypto.randomUUID()): PageViewEvent {
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

/** Delivers messages to the consumer as one queue batch, as the `attempts`-th delivery, then folds as the cron does. */
async function consume(messages: AnalyticsMessage[], e: Env = env, attempts = 1, queue = ANALYTICS_QUEUE_NAME) {
  const result = await deliverAnalytics(messages, e, { attempts, queue });
  await foldAnalytics(e);
  return result;
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

const count = async (sql: string) => Number(await env.DB.prepare(sql).first("n"));

/** Every counter the dashboards read, summed, so that a test sees at once whether anything was counted. */
async function counted() {
  return {
    urls: await count("select coalesce(sum(hits), 0) as n from url_stats"),
    urlDays: await count(
      `select (select coalesce(sum(requests), 0) from url_daily_usage)
         + (select coalesce(sum(latest_day_requests), 0) from url_stats) as n`,
    ),
    days: await count(
      `select (select coalesce(sum(requests), 0) from daily_usage)
         + (select coalesce(sum(latest_day_requests), 0) from usage_counters) as n`,
    ),
    customers: await count("select coalesce(sum(total_requests), 0) as n from usage_counters"),
    mappings: await count(
      `select (select coalesce(sum(requests), 0) from mapping_stats)
         + (select coalesce(sum(mapping_requests), 0) from url_stats) as n`,
    ),
    ledger: await count("select coalesce(sum(json_array_length(message_ids)), 0) as n from analytics_ledger"),
  };
}

const allCounted = (n: number, mappings = n) => ({ urls: n, urlDays: n, days: n, customers: n, mappings, ledger: n });
/** Every reducer reads and writes D1 through `e`'s (whose writes a test counts), or again through its own. */
async function reducersUse(e: Env) {
  for (let shard = 0; shard < reducerShards(env); shard++) {
    await runInDurableObject(reducerOf(env, shard), (reducer: AnalyticsReducer) => {
      Object.assign(reducer, { env: e });
    });
  }
}

const pendingViews = () => count("select coalesce(sum(views), 0) as n from analytics_pending");

/** The events of every archive object: gunzipped NDJSON. */
async function archived(): Promise<Record<string, unknown>[]> {
  const listed = await env.ANALYTICS_ARCHIVE.list({ prefix: "raw/" });
  const events: Record<string, unknown>[] = [];
  for (const { key } of listed.objects) {
    const object = (await env.ANALYTICS_ARCHIVE.get(key))!;
    expect(object.httpMetadata).toMatchObject({ contentType: "application/x-ndjson", contentEncoding: "gzip" });
    const text = await new Response(object.body.pipeThrough(new DecompressionStream("gzip"))).text();
    events.push(
      ...text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
  }
  return events;
}

/** The ledger: per row, its second and the ids it holds. */
async function ledger(): Promise<{ second: number; ids: string[] }[]> {
  const { results } = await env.DB.prepare(
    "select second, message_ids from analytics_ledger order by second, message_ids",
  ).all<{ second: number; message_ids: string }>();
  return results.map((row) => ({ second: row.second, ids: JSON.parse(row.message_ids) as string[] }));
}

describe("analytics queue consumer", () => {
  it("takes a batch into D1 as one pending row; the fold counts it with one upsert per counter row", async () => {
    const { user, apiKey, mapping } = await setup();
    const result = await deliverAnalytics([
      message(user.id, mapping.id, "https://shop.test/a"),
      message(user.id, mapping.id, "http://www.shop.test/a/"),
      message(user.id, null, "https://shop.test/b"),
    ]);
    expect(result.explicitAcks).toHaveLength(0);
    expect(result.ackAll).toBe(true);
    // Taken, not counted yet: the dashboards show it after the minute cron's fold.
    expect(await pendingViews()).toBe(3);
    expect(await count("select count(*) as n from analytics_pending")).toBe(1);
    expect(await counted()).toEqual({ ...allCounted(0, 0), ledger: 3 });

    expect(await foldAnalytics()).toBe(3);
    expect(await pendingViews()).toBe(0);
    expect(await counted()).toEqual(allCounted(3, 2));
    // One row per URL (with its mapping's counts), one per customer (with their day's): not one per message.
    expect(await count("select count(*) as n from url_stats")).toBe(2);
    // The day is the customer's newest: on their counters row, not a row of its own yet.
    expect(await count("select count(*) as n from usage_counters where latest_day <> ''")).toBe(1);
    expect(await count("select count(*) as n from daily_usage")).toBe(0);
    expect(await count("select count(*) as n from analytics")).toBe(0);

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

    // The events are in R2 as sent; D1 keeps their ids only.
    const events = await archived();
    expect(events.map((e) => e.url).sort()).toEqual([
      "http://www.shop.test/a/",
      "https://shop.test/a",
      "https://shop.test/b",
    ]);
    expect(events[0]).toMatchObject({ userId: user.id, userAgent: "ua", normalizedUrl: expect.any(String) });
    expect((await ledger()).flatMap((row) => row.ids).sort()).toEqual(events.map((e) => e.id).sort());
  });

  it("counts each view of a bundle once, and a view that two messages carry once", async () => {
    const { user, mapping } = await setup();
    const views = Array.from({ length: 5 }, () => message(user.id, mapping.id, "https://shop.test/a"));
    await consume([{ views: views.slice(0, 3) }, { views: views.slice(2) }, views[0]!]);
    expect(await counted()).toEqual(allCounted(5));
    expect(await archived()).toHaveLength(5);
  });

  it("takes a batch of more views than one statement holds in chunks, each counted once when redelivered", async () => {
    const { user, mapping } = await setup();
    const views = Array.from({ length: 1_234 }, (_, i) => message(user.id, mapping.id, `https://shop.test/a?i=${i}`));
    const bundles = Array.from({ length: 13 }, (_, i) => ({ views: views.slice(i * 100, i * 100 + 100) }));
    await deliverAnalytics(bundles);
    expect(await count("select count(*) as n from analytics_pending")).toBe(3);
    await consume(bundles, env, 2);
    expect(await counted()).toEqual(allCounted(1_234));
  });

  it("keeps the per-URL series and the ledger in their keys' B-trees alone: no rowid table beside its key", async () => {
    const { user, mapping } = await setup();
    await consume([message(user.id, mapping.id, "https://shop.test/a")]);
    for (const table of ["url_daily_usage", "analytics_ledger"]) {
      const objects = await env.DB.prepare("select type, name, sql from sqlite_schema where tbl_name = ? order by name")
        .bind(table)
        .all<{ type: string; name: string; sql: string | null }>();
      expect(objects.results.map((o) => [o.type, o.name])).toEqual([["table", table]]);
      expect(objects.results[0]!.sql).toMatch(/WITHOUT ROWID$/);
    }
    expect(await counted()).toEqual(allCounted(1));
  });

  it("keeps the ids in one ledger row per 10 seconds of the views' timestamps, each view once", async () => {
    const { user, mapping } = await setup();
    const span = Math.floor(Date.now() / 10_000) * 10 - 10;
    const at = (ms: number, url: string) => ({ ...message(user.id, mapping.id, url), timestamp: span * 1000 + ms });
    const first = [
      at(100, "https://shop.test/a"),
      at(900, "https://shop.test/a?x=1"),
      at(9_200, "https://shop.test/a#y"),
    ];
    await consume(first);
    // Redelivered with one new view of the next span: only the new one is taken again.
    const later = at(10_500, "https://shop.test/a?z=2");
    await consume([...first, later]);

    const rows = await ledger();
    expect(rows.map((r) => [r.second - span, r.ids.length])).toEqual([
      [0, 3],
      [10, 1],
    ]);
    expect(rows.flatMap((r) => r.ids).sort()).toEqual([...first, later].map((v) => v.id).sort());
    expect(await counted()).toEqual(allCounted(4));

    // A row written one per second, before spans, still keeps its view from being counted again.
    const old = at(3_700, "https://shop.test/a?old=1");
    await env.DB.prepare("insert into analytics_ledger (second, batch, message_ids) values (?, 'before', ?)")
      .bind(span + 3, JSON.stringify([old.id]))
      .run();
    await consume([old]);
    expect(await counted()).toEqual({ ...allCounted(4), ledger: 5 });
  });

  it("counts nothing twice when a batch is redelivered, whole or mixed with new messages", async () => {
    const { user, apiKey, mapping } = await setup();
    const batch = [message(user.id, mapping.id, "https://shop.test/a"), message(user.id, null, "https://shop.test/b")];
    await consume(batch);
    await consume(batch, env, 2);
    await consume([batch[1]!, message(user.id, mapping.id, "https://shop.test/a")], env, 3);
    // The queue may hand one message over twice in a batch, too.
    const twice = message(user.id, mapping.id, "https://shop.test/a");
    await consume([twice, twice]);
    expect(await counted()).toEqual(allCounted(4, 3));
    const stats = (await (await call("/api/user/stats", { apiKey })).json()) as { totalRequests: number };
    expect(stats.totalRequests).toBe(4);
  });

  it.each([["analytics_pending"], ["analytics_ledger"]])(
    "takes nothing when writing %s fails, retries, and then counts everything once",
    async (table) => {
      const { user, mapping } = await setup();
      const batch = [
        message(user.id, mapping.id, "https://shop.test/a"),
        message(user.id, null, "https://shop.test/b"),
      ];
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const failed = await whileWritesFail(table!, () => consume(batch));
      expect(logged).toHaveBeenCalledWith("Analytics batch failed; retrying", expect.any(Error));
      logged.mockRestore();
      expect(failed.retryBatch).toMatchObject({ retry: true });
      expect(failed.ackAll).toBe(false);
      expect(await counted()).toEqual(allCounted(0, 0));
      expect(await pendingViews()).toBe(0);

      const retried = await consume(batch, env, 2);
      expect(retried.ackAll).toBe(true);
      expect(await counted()).toEqual(allCounted(2, 1));
      await consume(batch, env, 3);
      expect(await counted()).toEqual(allCounted(2, 1));
    },
  );

  // The fold's statements in their order (fold.ts): the customer's counters first, the URLs' in the middle, the
  // mappings' last. Whatever was written before the failure, the transaction takes back, pending rows included.
  it.each([
    ["first", "usage_counters"],
    ["mid-fold", "url_stats"],
    ["last", "mapping_stats"],
  ])(
    "leaves a reducer's settled sums pending when the fold's %s write fails (%s), and counts them once the next minute",
    async (_, table) => {
      const { user, mapping } = await setup();
      await env.DB.prepare("update users set request_limit = 1000 where id = ?").bind(user.id).run();
      const visitor = { visitor: "v1" };
      // The second view's mapping is not the one at its URL: it is counted in `mapping_stats`.
      const batch = [
        { ...message(user.id, mapping.id, "https://shop.test/a"), ...visitor },
        { ...message(user.id, mapping.id, "https://shop.test/b"), ...visitor },
      ];
      await deliverAnalytics(batch);
      const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      await whileWritesFail(table!, () => foldAnalytics());
      expect(warned).toHaveBeenCalledWith(expect.stringMatching(/the minute cron will fold them/), expect.any(Error));
      warned.mockRestore();
      expect(await counted()).toEqual({ ...allCounted(0, 0), ledger: 2 });
      expect(await pendingViews()).toBe(2);

      expect(await foldAnalytics()).toBe(2);
      expect(await counted()).toEqual(allCounted(2, 2));
      expect(await foldAnalytics()).toBe(0);
      expect(await counted()).toEqual(allCounted(2, 2));
    },
  );

  it("counts a range once when two folds take it at the same time", async () => {
    const { user, mapping } = await setup();
    await deliverAnalytics([message(user.id, mapping.id, "https://shop.test/a")]);
    const seq = await count("select seq as n from analytics_pending");
    const range = { from: seq, to: seq, views: 1 };
    await Promise.all([foldRange(env, range, new Date()), foldRange(env, range, new Date())]);
    await settleCounters(env, "all");
    expect(await counted()).toEqual(allCounted(1));
  });

  it("writes each counter row once a fold, however many views of its URL the fold holds", async () => {
    const { user, mapping } = await setup();
    const HOUR = 3_600_000;
    // Yesterday 10:00 UTC: every fold below falls on one day, in the hours it says.
    const ten = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + 10 * HOUR;
    const at = (timestamp: number) => ({ ...message(user.id, mapping.id, "https://shop.test/a"), timestamp });
    /** The D1 rows a fold of `views` views of one mapped URL at `timestamp` writes. */
    const rowsWrittenByFold = async (views: number, timestamp: number) => {
      let rows = 0;
      const metered = {
        ...env,
        DB: new Proxy(env.DB, {
          get(target, key) {
            if (key !== "batch") return Reflect.get(target, key, target);
            return async (statements: D1PreparedStatement[]) => {
              const results = await target.batch(statements);
              for (const r of results) rows += r.meta.rows_written ?? 0;
              return results;
            };
          },
        }),
      } as Env;
      await deliverAnalytics(Array.from({ length: views }, (_, i) => at(timestamp + i)));
      await reducersUse(metered);
      try {
        expect(await foldAnalytics(metered)).toBe(views);
      } finally {
        await reducersUse(env);
      }
      return rows;
    };
    await consume([at(ten)]);
    const sameHour = [await rowsWrittenByFold(1, ten + 60_000), await rowsWrittenByFold(50, ten + 120_000)];
    expect(sameHour[1]).toBe(sameHour[0]);
    // The minute's fold deletes the consumer's pending row and its handoff; the reducer's settle writes its pending
    // row (its entry in analytics_pending_reduced_idx, and AUTOINCREMENT's sequence) and checkpoint, and its fold the URL's row with its day's counts and its mapping's, the customer's row with
    // their day's, and the pending row's delete: not one row per view, nor a second write of the URL's row, nor a row
    // for the mapping or the customer's day, nor the URL's Last Accessed index entry, which holds the hour.
    expect(sameHour[0]).toBe(2 + 4 + 3);
    // In a later hour the index entry moves: one row more.
    expect(await rowsWrittenByFold(1, ten + HOUR)).toBe(2 + 4 + 4);
    expect(await counted()).toEqual(allCounted(53));
  });

  it("keeps a mapping's totals whichever row counts them: versions of one URL, a move, a prefix, a delete", async () => {
    const { user, mapping: first } = await setup();
    const url = "https://shop.test/a";
    const totals = async (id: number) => {
      const m = await getMapping(db(), user.id, id);
      return m && [m.totalRequests, m.contentDeliveryCount];
    };
    const urlRow = () => env.DB.prepare("select mapping_id as id from url_stats where url = 'shop.test/a'").first("id");
    await consume([message(user.id, first.id, url), message(user.id, first.id, url)]);
    expect(await totals(first.id)).toEqual([2, 2]);
    // The exact mapping's counts are on its URL's row: the fold wrote no mapping_stats row.
    expect(await urlRow()).toBe(first.id);
    expect(await count("select count(*) as n from mapping_stats")).toBe(0);

    // A newer version at the URL takes the row; a late view of the older one still counts for it.
    const second = await createMapping(db(), user.id, url, "A2");
    await consume([message(user.id, second.id, url), message(user.id, first.id, url)]);
    expect(await urlRow()).toBe(second.id);
    expect([await totals(first.id), await totals(second.id)]).toEqual([
      [3, 3],
      [1, 1],
    ]);
    // The older one again (the newer unpublished, say): the row's counts move to the newer one's mapping_stats row.
    await consume([message(user.id, first.id, url)]);
    expect(await urlRow()).toBe(first.id);
    expect([await totals(first.id), await totals(second.id)]).toEqual([
      [4, 4],
      [1, 1],
    ]);
    const byUrl = await listMappings(db(), user.id, { limit: 10, offset: 0, group: "url" }, null);
    expect(byUrl.rows.map((r) => [r.totalRequests, r.urlMappingCount])).toEqual([[5, 2]]);
    const byGroup = await listMappingGroups(db(), user.id, { limit: 10, offset: 0 });
    expect(byGroup.rows.map((r) => [r.totalRequests, r.events])).toEqual([[5, 2]]);

    // A prefix mapping's views count in mapping_stats; an undelivered view counts as a request only.
    const prefix = await createMapping(db(), user.id, "https://shop.test/blog/*", "B");
    await consume([message(user.id, prefix.id, "https://shop.test/blog/x"), message(user.id, null, url)]);
    expect(await totals(prefix.id)).toEqual([1, 1]);
    expect(await totals(first.id)).toEqual([4, 4]);

    // Moved to another URL, a mapping keeps its totals; deleted, they go with it.
    await changeMapping(db(), user.id, first.id, { url: "https://shop.test/c", normalizedUrl: "shop.test/c" });
    expect(await urlRow()).toBeNull();
    expect(await totals(first.id)).toEqual([4, 4]);
    await consume([message(user.id, second.id, url)]);
    await deleteMapping(db(), user.id, second.id);
    expect(await urlRow()).toBeNull();
    expect(await count("select count(*) as n from mapping_stats where mapping_id = " + second.id)).toBe(0);
    expect(await count("select sum(hits) as n from url_stats where url = 'shop.test/a'")).toBe(7);
  });

  it("keeps the Analytics tab in Last Accessed order within an hour and across hours", async () => {
    const { user, apiKey, mapping } = await setup();
    const HOUR = 3_600_000;
    const ten = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + 10 * HOUR;
    const view = (url: string, timestamp: number) => ({ ...message(user.id, mapping.id, url), timestamp });
    // b and c are first seen in hour 10 and a in hour 11; then c again later in hour 10 (its hour stays, so only the
    // row is written) and b in hour 11 (its hour moves): c last, and a before b within hour 11.
    await consume([view("https://shop.test/b", ten + 1_000), view("https://shop.test/c", ten + 2_000)]);
    await consume([view("https://shop.test/a", ten + HOUR + 5_000)]);
    await consume([view("https://shop.test/c", ten + 3_000)]);
    await consume([view("https://shop.test/b", ten + HOUR + 1_000)]);
    const order = async (direction: "asc" | "desc") =>
      (
        (await (await call(`/api/analytics?sortBy=timestamp&sortDirection=${direction}`, { apiKey })).json()) as {
          url: string;
        }[]
      ).map((r) => r.url);
    expect(await order("desc")).toEqual(["shop.test/a", "shop.test/b", "shop.test/c"]);
    expect(await order("asc")).toEqual(["shop.test/c", "shop.test/b", "shop.test/a"]);
  });

  it("moves Last Accessed on only to a later view, and keeps it for a late one", async () => {
    const { user, apiKey, mapping } = await setup();
    const now = Date.now();
    await consume([{ ...message(user.id, mapping.id, "https://shop.test/a"), timestamp: now }]);
    await consume([{ ...message(user.id, mapping.id, "https://shop.test/a"), timestamp: now - 60_000 }]);
    const lastAccessed = async () =>
      ((await (await call("/api/analytics", { apiKey })).json()) as { lastAccessed: string }[])[0]!.lastAccessed;
    expect(await lastAccessed()).toBe(new Date(now).toISOString());
    await consume([{ ...message(user.id, mapping.id, "https://shop.test/a"), timestamp: now + 5_000 }]);
    expect(await lastAccessed()).toBe(new Date(now + 5_000).toISOString());
  });

  it("counts nothing and retries when the archive cannot be written", async () => {
    const { user, mapping } = await setup();
    const failingArchive = {
      put: async () => {
        throw new Error("R2 unavailable");
      },
    } as unknown as R2Bucket;
    const batch = [message(user.id, mapping.id, "https://shop.test/a")];
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failed = await consume(batch, { ...env, ANALYTICS_ARCHIVE: failingArchive });
    expect(logged).toHaveBeenCalledWith("Analytics batch failed; retrying", expect.any(Error));
    logged.mockRestore();
    expect(failed.retryBatch).toMatchObject({ retry: true });
    expect(await counted()).toEqual(allCounted(0, 0));
    await consume(batch, env, 2);
    expect(await counted()).toEqual(allCounted(1));
    expect(await archived()).toHaveLength(1);
  });

  it("drops messages of users that no longer exist instead of failing the batch or the fold", async () => {
    const { user, mapping } = await setup();
    const gone = await createVerifiedCustomer("gone@example.com");
    await deliverAnalytics([message(gone.user.id, null, "https://x.test/")]);
    await env.DB.prepare("delete from users where id = ?").bind(gone.user.id).run();
    const result = await consume([
      message("gone", null, "https://x.test/"),
      message(user.id, mapping.id, "https://shop.test/a"),
    ]);
    expect(result.ackAll).toBe(true);
    expect(await counted()).toEqual(allCounted(1));
    expect(await pendingViews()).toBe(0);
  });

  it("counts a full batch of 100 customers in one transaction within D1's parameter limit", async () => {
    const customers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => createVerifiedCustomer(`c${i}@example.com`)),
    );
    // Each on a website of theirs (a mapping there), on a page without a mapping of its own.
    for (const { user } of customers) await createMapping(db(), user.id, `https://${user.id}.test/mapped`, "<p>x</p>");
    const result = await consume(customers.map(({ user }) => message(user.id, null, `https://${user.id}.test/`)));
    expect(result.ackAll).toBe(true);
    expect(await counted()).toEqual(allCounted(100, 0));
    // A hundred customers and their mappings to set up, then a fold and a settle on four reducers.
  }, 20_000);

  it("purges up to 200 expired ledger rows after each batch, so the purge keeps pace with traffic", async () => {
    const { user, mapping } = await setup();
    const expired = Math.floor((Date.now() - 8 * 86_400_000) / 1000);
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 250)
       insert into analytics_ledger (second, batch, message_ids) select ?, 'old' || i, '[]' from n`,
    )
      .bind(expired)
      .run();
    const expiredRows = () => count(`select count(*) as n from analytics_ledger where batch like 'old%'`);

    await consume([message(user.id, mapping.id, "https://shop.test/a")]);
    expect(await expiredRows()).toBe(50);
    await consume([message(user.id, mapping.id, "https://shop.test/a")]);
    expect(await expiredRows()).toBe(0);
    // The batches' own rows are inside the window and stay.
    expect(await counted()).toEqual(allCounted(2));
  });

  it("counts page views of the customer's websites only: a stranger's URLs with their id count nothing", async () => {
    const { user, mapping, apiKey } = await setup();
    const result = await consume([
      message(user.id, mapping.id, "https://shop.test/a"),
      message(user.id, null, "https://shop.test/unmapped-page"),
      message(user.id, null, "https://WWW.Shop.test/other?x=1"),
      ...Array.from({ length: 20 }, (_, i) => message(user.id, null, `https://attacker.example/${i}`)),
      message(user.id, null, "javascript:alert(1)//shop.test/"),
    ]);
    expect(result.ackAll).toBe(true);
    expect(await counted()).toEqual(allCounted(3, 1));
    const rows = (await (await call("/api/analytics", { apiKey })).json()) as { url: string }[];
    expect(rows.map((r) => r.url).sort()).toEqual(["shop.test/a", "shop.test/other?x=1", "shop.test/unmapped-page"]);
  });

  it("replays the dead-letter queue as its consumer: what was never counted counts once, the rest nothing", async () => {
    const { user, mapping } = await setup();
    const counted1 = message(user.id, mapping.id, "https://shop.test/a");
    await consume([counted1]);
    // A batch that failed ten times, with one message that had been counted in another batch meanwhile.
    const failed = [message(user.id, mapping.id, "https://shop.test/a"), message(user.id, null, "https://shop.test/b")];
    const replay = await consume([...failed, counted1], env, 1, "dynamic-content-analytics-dlq");
    expect(replay.ackAll).toBe(true);
    expect(await counted()).toEqual(allCounted(3, 2));
    await consume(failed, env, 2, "dynamic-content-analytics-dlq");
    expect(await counted()).toEqual(allCounted(3, 2));
  });

  it("counts nothing of a replay older than the ledger's window, and records it as lost", async () => {
    const { user, mapping } = await setup();
    const days = Number(env.ANALYTICS_RAW_RETENTION_DAYS ?? 7);
    // A view whose ids may have left the ledger: a batch that had committed it and then failed would count it twice.
    const stale = { ...message(user.id, mapping.id, "https://shop.test/a"), timestamp: Date.now() - days * 86_400_000 };
    const fresh = message(user.id, mapping.id, "https://shop.test/a");
    const replay = await consume([stale, fresh], env, 1, "dynamic-content-analytics-dlq");
    expect(replay.ackAll).toBe(true);
    expect(await counted()).toEqual(allCounted(1));
    expect(await count("select sum(items) as n from analytics_losses where reason = 'too-old'")).toBe(1);
    expect((await archived()).map((e) => e.id)).toContain(stale.id);
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

  it("keeps one entry per URL in the search index however often it is counted, and drops it with the customer", async () => {
    const { user, apiKey, mapping } = await setup();
    const other = await createVerifiedCustomer("other@example.com");
    await createMapping(db(), other.user.id, "https://x.test/", "<p>x</p>");
    await consume([
      message(user.id, mapping.id, "https://shop.test/sale-2026"),
      message(other.user.id, null, "https://x.test/sale-2026"),
    ]);
    await consume([message(user.id, mapping.id, "https://shop.test/sale-2026")]);
    await consume([message(user.id, null, "https://shop.test/Sale-2027")]);
    const found = async (term: string) =>
      ((await (await call(`/api/analytics?searchTerm=${term}`, { apiKey })).json()) as { url: string }[]).map(
        (r) => r.url,
      );
    expect(await found("SALE-")).toEqual(["shop.test/sale-2027", "shop.test/sale-2026"]);
    expect(await found("sale-2026")).toEqual(["shop.test/sale-2026"]);
    const indexed = () => count(`select count(*) as n from url_stats_search where url_stats_search match '"sale-202"'`);
    expect(await indexed()).toBe(3);
    await env.DB.prepare("delete from users where id = ?").bind(other.user.id).run();
    expect(await indexed()).toBe(2);
  });
});
