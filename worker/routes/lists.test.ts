/**
 * Every list pages in SQL: `limit` and `offset`, the total in `X-Total-Count`, the whole list (up to 1,000 rows, the
 * rest linked) to a client that asks for no page, a `limit` past the cap refused with a message that names it;
 * search and sort are the server's.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { HTML_PREVIEW_CHARS } from "#contract/input-caps";
import type { AdminMapping, AdminUser, AnalyticsRow, Mapping, MappingGroup, Transaction } from "#contract/responses";
import { auditEvents, mappingStats, paypalTransactions, urlMappings, usageCounters, users } from "../db/schema";
import { createMapping } from "../models/mappings";
import { call, createAdmin, createVerifiedCustomer, db } from "../test/helpers";

async function page<T>(path: string, apiKey: string) {
  const res = await call(path, { apiKey });
  expect(res.status, path).toBe(200);
  return { rows: (await res.json()) as T[], total: Number(res.headers.get("X-Total-Count")) };
}

/** Mappings for the user, one a second apart (the last one newest), in one statement of one parameter. */
async function insertMappings(userId: string, urls: string[], html = (i: number) => `<p>${i}</p>`) {
  const start = Date.UTC(2026, 0, 1);
  const rows = urls.map((url, i) => ({
    url,
    normalized: url
      .replace(/^https?:\/\//, "")
      .replace(/^www\./i, "")
      .replace(/\/+$/, "")
      .toLowerCase(),
    html: html(i),
    at: start + i * 1000,
  }));
  await env.DB.prepare(
    `insert into url_mappings (user_id, url, normalized_url, html_content, published_at, created_at)
     select ?1, json_extract(value, '$.url'), json_extract(value, '$.normalized'), json_extract(value, '$.html'),
       json_extract(value, '$.at'), json_extract(value, '$.at')
     from json_each(?2)`,
  )
    .bind(userId, JSON.stringify(rows))
    .run();
  return db().select().from(urlMappings).where(eq(urlMappings.userId, userId)).orderBy(urlMappings.id);
}

describe("the list contract", () => {
  it("pages every list with limit and offset, answers the total, and refuses a limit past its cap", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    await insertMappings(
      customer.user.id,
      Array.from({ length: 5 }, (_, i) => `https://shop.test/p${i}`),
    );
    for (const [path, key, total] of [
      ["/api/mappings", customer.apiKey, 5],
      ["/api/admin/mappings", admin.apiKey, 5],
      ["/api/admin/users", admin.apiKey, 2],
      ["/api/admin/users/emails", admin.apiKey, 2],
      [`/api/admin/users/${customer.user.id}/mappings`, admin.apiKey, 5],
    ] as const) {
      const first = await page<unknown>(`${path}?limit=2`, key);
      const last = await page<unknown>(`${path}?limit=2&offset=${total - 1}`, key);
      expect(first.total, path).toBe(total);
      expect(first.rows, path).toHaveLength(Math.min(2, total));
      expect(last.rows, path).toHaveLength(1);
      const beyond = await page<unknown>(`${path}?offset=${total + 10}`, key);
      expect(beyond, path).toEqual({ rows: [], total });
    }
    for (const [path, key, cap] of [
      ["/api/mappings", customer.apiKey, "200"],
      ["/api/analytics", customer.apiKey, "1,000"],
      ["/api/admin/users", admin.apiKey, "1,000"],
      ["/api/admin/billing/transactions", admin.apiKey, "1,000"],
      ["/api/user/payment-history", customer.apiKey, "1,000"],
    ] as const) {
      const res = await call(`${path}?limit=5000`, { apiKey: key });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({ error: `limit must be at most ${cap}` });
    }
    const negative = await call("/api/mappings?offset=-1", { apiKey: customer.apiKey });
    expect(await negative.json()).toEqual({ error: "offset must be at least 0" });
  });

  it("answers a client that asks for no page the whole list, up to 1,000 rows, and links the rest", async () => {
    const customer = await createVerifiedCustomer("c@example.com");
    const admin = await createAdmin();
    await insertMappings(
      customer.user.id,
      Array.from({ length: 1_030 }, (_, i) => `https://shop.test/p${i}`),
      (i) => `<p>${"x".repeat(i % 7)}${i}</p>`,
    );
    // The customer's mappings are streamed a page at a time; SPEC.md's client gets one JSON list.
    const res = await call("/api/mappings", { apiKey: customer.apiKey });
    expect(res.status).toBe(200);
    const rows = (await res.json()) as Mapping[];
    expect(rows).toHaveLength(1_000);
    expect(rows[0]!.url).toBe("https://shop.test/p1029");
    expect(rows.at(-1)!.url).toBe("https://shop.test/p30");
    expect(new Set(rows.map((r) => r.id)).size).toBe(1_000);
    expect(res.headers.get("X-Total-Count")).toBe("1030");
    expect(res.headers.get("Link")).toBe('<http://dc.test/api/mappings?offset=1000&limit=200>; rel="next"');
    const rest = await page<Mapping>("/api/mappings?offset=1000&limit=200", customer.apiKey);
    expect(rest.rows.map((r) => r.url)).toEqual(Array.from({ length: 30 }, (_, i) => `https://shop.test/p${29 - i}`));

    const grouped = await call("/api/mappings?group=url&searchTerm=p102", { apiKey: customer.apiKey });
    expect(((await grouped.json()) as Mapping[]).map((r) => r.url)).toEqual(
      Array.from({ length: 10 }, (_, i) => `https://shop.test/p${1029 - i}`).concat("https://shop.test/p102"),
    );
    expect(grouped.headers.get("Link")).toBeNull();

    // A list of small rows answers its whole list at once; a page asked for is a page, without a link.
    const events = await call("/api/admin/mappings", { apiKey: admin.apiKey });
    expect((await events.json()) as unknown[]).toHaveLength(1_000);
    expect(events.headers.get("Link")).toBe('<http://dc.test/api/admin/mappings?offset=1000&limit=1000>; rel="next"');
    const paged = await call("/api/admin/mappings?offset=0", { apiKey: admin.apiKey });
    expect((await paged.json()) as unknown[]).toHaveLength(100);
    expect(paged.headers.get("Link")).toBeNull();

    // The admin's activity log too.
    const audited = Array.from({ length: 1_001 }, (_, i) => ({
      action: "impersonate" as const,
      actorId: admin.user.id,
      actorEmail: admin.user.email,
      targetId: customer.user.id,
      targetEmail: customer.user.email,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    }));
    for (let i = 0; i < audited.length; i += 10)
      await db()
        .insert(auditEvents)
        .values(audited.slice(i, i + 10));
    const log = await call("/api/admin/audit-events", { apiKey: admin.apiKey });
    expect((await log.json()) as unknown[]).toHaveLength(1_000);
    expect(log.headers.get("X-Total-Count")).toBe("1001");
    expect(log.headers.get("Link")).toBe('<http://dc.test/api/admin/audit-events?offset=1000&limit=1000>; rel="next"');

    const empty = await createVerifiedCustomer("d@example.com");
    const none = await call("/api/mappings", { apiKey: empty.apiKey });
    expect(await none.json()).toEqual([]);
    expect(none.headers.get("X-Total-Count")).toBe("0");
  }, 30_000);
});

describe("GET /api/mappings", () => {
  it("groups by normalised URL on the server: the newest of each, the group's counts summed, newest first", async () => {
    const customer = await createVerifiedCustomer("c@example.com");
    const rows = await insertMappings(customer.user.id, [
      "https://shop.test/a",
      "http://www.SHOP.test/a/",
      "https://shop.test/b",
      "https://shop.test/a",
    ]);
    await db()
      .insert(mappingStats)
      .values(rows.map((r, i) => ({ mappingId: r.id, requests: i + 1, deliveries: 1, lastAccessed: new Date() })));
    const grouped = await page<Mapping>("/api/mappings?group=url", customer.apiKey);
    expect(grouped.total).toBe(2);
    expect(grouped.rows.map((m) => [m.id, m.totalRequests, m.contentDeliveryCount])).toEqual([
      [rows[3]!.id, 1 + 2 + 4, 3],
      [rows[2]!.id, 3, 1],
    ]);
    const second = await page<Mapping>("/api/mappings?group=url&limit=1&offset=1", customer.apiKey);
    expect(second).toEqual({ rows: [grouped.rows[1]], total: 2 });
  });

  it("searches URL and HTML content ignoring case, in SQL; grouped, it looks at each group's newest", async () => {
    const customer = await createVerifiedCustomer("c@example.com");
    await insertMappings(
      customer.user.id,
      ["https://shop.test/sale", "https://shop.test/about", "https://shop.test/about"],
      (i) => ["<p>Black FRIDAY</p>", "<p>friday old</p>", "<p>team</p>"][i]!,
    );
    expect((await page<Mapping>("/api/mappings?searchTerm=friday", customer.apiKey)).total).toBe(2);
    const grouped = await page<Mapping>("/api/mappings?group=url&searchTerm=Friday", customer.apiKey);
    expect(grouped.rows.map((m) => m.url)).toEqual(["https://shop.test/sale"]);
    expect((await page<Mapping>("/api/mappings?searchTerm=%25", customer.apiKey)).total).toBe(0);
  });

  it("searches through the trigram index, which follows every insert, update and delete", async () => {
    const customer = await createVerifiedCustomer("c@example.com");
    const other = await createVerifiedCustomer("o@example.com");
    const [kept, edited, removed] = await insertMappings(
      customer.user.id,
      ["https://shop.test/a", "https://shop.test/b", "https://shop.test/c"],
      (i) => [`<p class="x">Sale "AND" NEAR(*)</p>`, "<p>winter</p>", "<p>summer sale</p>"][i]!,
    );
    await insertMappings(other.user.id, ["https://other.test/"], () => "<p>sale</p>");
    await db().update(urlMappings).set({ htmlContent: "<p>Spring SALE</p>" }).where(eq(urlMappings.id, edited!.id));
    await db().delete(urlMappings).where(eq(urlMappings.id, removed!.id));
    const found = async (term: string) =>
      (await page<Mapping>(`/api/mappings?searchTerm=${encodeURIComponent(term)}`, customer.apiKey)).rows.map(
        (m) => m.id,
      );
    expect(await found("sale")).toEqual([edited!.id, kept!.id]);
    expect(await found("winter")).toEqual([]);
    expect(await found('"AND" NEAR(*)')).toEqual([kept!.id]);
    expect(await found('class="x"')).toEqual([kept!.id]);
    expect(await found("sa")).toEqual([edited!.id, kept!.id]);
    const indexed = await env.DB.prepare(
      `select rowid from url_mappings_search where url_mappings_search match '"summer"'`,
    ).all();
    expect(indexed.results).toEqual([]);
  });
});

describe("the admin's lists", () => {
  it("carry a preview of the HTML, never all of it; one mapping is fetched whole", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    const long = `<div>${"x".repeat(5_000)}</div>`;
    const mapping = await createMapping(db(), customer.user.id, "https://shop.test/", long);
    const events = await page<AdminMapping>("/api/admin/mappings", admin.apiKey);
    expect(events.rows[0]!.htmlContent).toBe(long.slice(0, HTML_PREVIEW_CHARS));
    expect(events.rows[0]!.htmlContentLength).toBe(long.length);
    expect(events.rows[0]!.userEmail).toBe("c@example.com");
    const detail = (await (await call(`/api/admin/users/${customer.user.id}`, { apiKey: admin.apiKey })).json()) as {
      mappings: Mapping[];
    };
    expect(detail.mappings[0]!.htmlContent).toHaveLength(HTML_PREVIEW_CHARS);
    const whole = (await (await call(`/api/admin/mappings/${mapping.id}`, { apiKey: admin.apiKey })).json()) as Mapping;
    expect(whole.htmlContent).toBe(long);
    expect((await call("/api/admin/mappings/999999", { apiKey: admin.apiKey })).status).toBe(404);
  });

  it("group a customer's mappings by URL ignoring case and scheme, and list one group's events", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    const rows = await insertMappings(customer.user.id, [
      "https://Shop.test/a",
      "http://shop.test/a",
      "https://www.shop.test/a",
      "https://shop.test/b",
    ]);
    await db()
      .insert(mappingStats)
      .values(rows.map((r) => ({ mappingId: r.id, requests: 2, deliveries: 1, lastAccessed: new Date() })));
    const groups = await page<MappingGroup>(`/api/admin/users/${customer.user.id}/mapping-groups`, admin.apiKey);
    expect(groups.total).toBe(3);
    expect(groups.rows.map((g) => [g.key, g.url, g.events, g.totalRequests, g.contentDeliveryCount])).toEqual([
      ["shop.test/b", "https://shop.test/b", 1, 2, 1],
      ["www.shop.test/a", "https://www.shop.test/a", 1, 2, 1],
      ["shop.test/a", "http://shop.test/a", 2, 4, 2],
    ]);
    const events = await page<AdminMapping>(
      `/api/admin/users/${customer.user.id}/mappings?url=${encodeURIComponent("shop.test/a")}`,
      admin.apiKey,
    );
    expect(events.rows.map((m) => m.id)).toEqual([rows[1]!.id, rows[0]!.id]);
  });

  it("search and sort the users in SQL: email part, requests, request limit (unlimited largest)", async () => {
    const admin = await createAdmin();
    const ann = await createVerifiedCustomer("ann@shop.test");
    const bob = await createVerifiedCustomer("bob@shop.test");
    const cid = await createVerifiedCustomer("cid@other.test");
    await db()
      .insert(usageCounters)
      .values([
        { userId: ann.user.id, totalRequests: 5 },
        { userId: bob.user.id, totalRequests: 50 },
      ]);
    await db().update(users).set({ requestLimit: 10 }).where(eq(users.id, ann.user.id));
    await db().update(users).set({ requestLimit: 0 }).where(eq(users.id, cid.user.id));
    const emails = async (query: string) =>
      (await page<AdminUser>(`/api/admin/users?${query}`, admin.apiKey)).rows.map((u) => u.email);
    expect(await emails("searchTerm=SHOP")).toEqual(["bob@shop.test", "ann@shop.test"]);
    expect(await emails("sortBy=email&sortDirection=asc")).toEqual([
      "admin@example.com",
      "ann@shop.test",
      "bob@shop.test",
      "cid@other.test",
    ]);
    expect((await emails("sortBy=totalRequests&sortDirection=desc")).slice(0, 2)).toEqual([
      "bob@shop.test",
      "ann@shop.test",
    ]);
    expect((await emails("sortBy=requestLimit&sortDirection=asc")).slice(0, 2)).toEqual([
      "cid@other.test",
      "ann@shop.test",
    ]);
    const bad = await call("/api/admin/users?sortBy=password", { apiKey: admin.apiKey });
    expect(bad.status).toBe(400);
  });
});

describe("analytics and money", () => {
  it("page the analytics rows, the transactions and the payment history", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    await env.DB.prepare(
      `insert into url_stats (user_id, url, hits, deliveries, last_accessed)
       select ?1, 'shop.test/p' || value, value, 0, 1700000000000 + value
       from json_each('[1,2,3,4,5]')`,
    )
      .bind(customer.user.id)
      .run();
    const analytics = await page<AnalyticsRow>("/api/analytics?limit=2&sortBy=url&sortDirection=asc", customer.apiKey);
    expect(analytics.total).toBe(5);
    expect(analytics.rows.map((r) => r.url)).toEqual(["shop.test/p1", "shop.test/p2"]);

    await db()
      .insert(paypalTransactions)
      .values(
        [1, 2, 3].map((i) => ({
          transactionId: `T${i}`,
          userId: customer.user.id,
          payerEmail: "c@example.com",
          receivedAt: new Date(Date.UTC(2026, 10, i)),
        })),
      );
    const all = await page<Transaction>("/api/admin/billing/transactions?limit=2", admin.apiKey);
    expect(all.total).toBe(3);
    expect(all.rows.map((t) => t.transactionId)).toEqual(["T3", "T2"]);
    const ofUser = await page<Transaction>(`/api/admin/users/${customer.user.id}/transactions?offset=2`, admin.apiKey);
    expect(ofUser).toMatchObject({ total: 3, rows: [{ transactionId: "T1" }] });
    const history = await page<{ transactionId: string }>("/api/user/payment-history?limit=1", customer.apiKey);
    expect(history).toMatchObject({ total: 3, rows: [{ transactionId: "T3" }] });
  });
});
