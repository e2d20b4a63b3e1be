import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminMapping, AdminUser, AdminUserDetail, Mapping } from "#contract/responses";
import { paypalTransactions, productVersions, usageCounters, users } from "../../db/schema";
import { secretKeys } from "../../lib/crypto";
import { saveSmtpSettings } from "../../models/smtp-config";
import { expectStoreMatchesD1 } from "../../test/delivery-store";
import {
  call,
  captureMails,
  createAdmin,
  createVerifiedCustomer,
  db,
  insertCustomers,
  visit,
} from "../../test/helpers";

let mails: ReturnType<typeof captureMails>;
beforeEach(() => {
  mails = captureMails();
});
afterEach(() => mails.restore());

const add = async (apiKey: string, url: string, html = "<p>x</p>") =>
  (await (await call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent: html } })).json()) as Mapping;

describe("GET /api/admin/users", () => {
  it("answers every user with the numbers from the counters", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const [growth] = await db()
      .insert(productVersions)
      .values({ name: "Growth", websitesLimit: 5, eventsLimit: 50, dynamicContentLimit: 0 })
      .returning();
    const shop = await createVerifiedCustomer("shop@example.com");
    await db().update(users).set({ productVersionId: growth!.id, requestLimit: 100 }).where(eq(users.id, shop.user.id));
    await add(shop.apiKey, "https://shop.test/a");
    await add(shop.apiKey, "http://www.shop.test/a/");
    await add(shop.apiKey, "https://blog.shop.test/");
    await visit(shop.user.id, "https://shop.test/a");
    await visit(shop.user.id, "https://shop.test/a");
    await visit(shop.user.id, "https://shop.test/none");
    await db()
      .insert(paypalTransactions)
      .values({ transactionId: "T1", userId: shop.user.id, profileStatus: "Cancelled", receivedAt: new Date() });
    await createVerifiedCustomer("quiet@example.com");

    const list = (await (await call("/api/admin/users", { apiKey: adminKey })).json()) as AdminUser[];
    expect(list.map((u) => u.email).sort()).toEqual(["admin@example.com", "quiet@example.com", "shop@example.com"]);
    expect(list.find((u) => u.email === "shop@example.com")).toMatchObject({
      role: "user",
      emailVerified: true,
      isActive: true,
      productVersionId: growth!.id,
      productVersionName: "Growth",
      profileStatus: "Cancelled",
      totalRequests: 3,
      uniqueUrlsCount: 2,
      dynamicContentCount: 3,
      eventsUsed: 3,
      websitesUsed: 2,
      dynamicContentDeliveryUsed: 2,
      periodRequests: 3,
      requestLimit: 100,
      uniqueUrlLimit: 5,
      eventsLimit: 50,
      dynamicContentLimit: null,
      apiKey: null,
    });
    expect(list.find((u) => u.email === "quiet@example.com")).toMatchObject({
      productVersionName: "Free",
      totalRequests: 0,
      uniqueUrlsCount: 0,
      websitesUsed: 0,
      periodRequests: 0,
      requestLimit: null,
    });
    const emails = (await (await call("/api/admin/users/emails", { apiKey: adminKey })).json()) as string[];
    expect(emails).toEqual(["admin@example.com", "quiet@example.com", "shop@example.com"]);
  });

  it("answers the requests of the current billing period apart from all requests ever", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    await db().insert(usageCounters).values({ userId: shop.user.id, totalRequests: 900, periodRequests: 40 });

    const detail = (await (await call(`/api/admin/users/${shop.user.id}`, { apiKey: adminKey })).json()) as AdminUser;
    expect(detail).toMatchObject({ totalRequests: 900, periodRequests: 40 });
  });

  it("lists more than 100 users with each one's own numbers (production D1 binds at most 100 parameters)", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const customers = 150;
    await insertCustomers(customers);
    // Customer n has n % 3 + 1 mappings: www.site-n.test/a, then site-n.test/a (the same URL once normalised),
    // then sub.site-n.test/ (a second URL and a second website); and n requests counted.
    await env.DB.prepare(
      `with kinds(k, url, normalized) as (values
         (0, 'https://www.site-%d.test/a', 'site-%d.test/a'),
         (1, 'https://site-%d.test/a', 'site-%d.test/a'),
         (2, 'https://sub.site-%d.test/', 'sub.site-%d.test')),
       bulk(id, n) as (select id, cast(substr(id, 5) as integer) from users where role = 'user')
       insert into url_mappings (url, normalized_url, html_content, user_id)
       select printf(kinds.url, bulk.n), printf(kinds.normalized, bulk.n), '<p>x</p>', bulk.id
       from bulk join kinds on kinds.k <= bulk.n % 3`,
    ).run();
    await env.DB.prepare(
      `insert into usage_counters (user_id, total_requests)
       select id, cast(substr(id, 5) as integer) from users where role = 'user'`,
    ).run();

    const response = await call("/api/admin/users?limit=1000", { apiKey: adminKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Total-Count")).toBe(String(customers + 1));
    const list = (await response.json()) as AdminUser[];
    expect(list).toHaveLength(customers + 1);
    expect(list.slice(0, 3).map((u) => u.email)).toEqual([
      "admin@example.com",
      "bulk150@example.com",
      "bulk149@example.com",
    ]);
    for (const n of [1, 2, 3, 101, 149, 150]) {
      const mappings = (n % 3) + 1;
      expect(list.find((u) => u.email === `bulk${n}@example.com`)).toMatchObject({
        totalRequests: n,
        dynamicContentCount: mappings,
        eventsUsed: mappings,
        uniqueUrlsCount: mappings === 3 ? 2 : 1,
        websitesUsed: mappings === 3 ? 2 : 1,
      });
    }
    const emails = (await (await call("/api/admin/users/emails", { apiKey: adminKey })).json()) as string[];
    expect(emails).toHaveLength(customers + 1);
  });

  it("answers one user's detail with the API key and mappings", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    await add(shop.apiKey, "https://shop.test/a", "<img src=x onerror=alert(1)>");
    const detail = (await (
      await call(`/api/admin/users/${shop.user.id}`, { apiKey: adminKey })
    ).json()) as AdminUserDetail;
    expect(detail.apiKey).toBe(shop.apiKey);
    expect(detail.mappings.map((m) => m.htmlContent)).toEqual(["<img src=x onerror=alert(1)>"]);
    expect((await call("/api/admin/users/nobody", { apiKey: adminKey })).status).toBe(404);
  });
});

describe("changing a user", () => {
  it("applies a request limit to delivery on the next request, and lifting it resumes delivery", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    await add(shop.apiKey, "https://shop.test/a");
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(200);
    const limited = await call(`/api/admin/users/${shop.user.id}/limits`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { requestLimit: 1 },
    });
    expect(((await limited.json()) as AdminUser).requestLimit).toBe(1);
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(204);
    await call(`/api/admin/users/${shop.user.id}/limits`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { requestLimit: null },
    });
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(200);
  });

  it("refuses a negative or fractional request limit and changes nothing", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    for (const requestLimit of [-1, 1.5, "10"]) {
      const res = await call(`/api/admin/users/${shop.user.id}/limits`, {
        method: "PATCH",
        apiKey: adminKey,
        json: { requestLimit },
      });
      expect(res.status).toBe(400);
    }
    expect((await db().select().from(users).where(eq(users.id, shop.user.id)))[0]!.requestLimit).toBeNull();
  });

  it("deactivates (snippet stops, key refused) and reactivates", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    await add(shop.apiKey, "https://shop.test/a");
    await call(`/api/admin/users/${shop.user.id}/status`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { isActive: false },
    });
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(204);
    expect((await call("/api/mappings", { apiKey: shop.apiKey })).status).toBe(403);
    await call(`/api/admin/users/${shop.user.id}/status`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { isActive: true },
    });
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(200);
  });

  it("changes the email, refusing one another account has", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    await createVerifiedCustomer("taken@example.com");
    const taken = await call(`/api/admin/users/${shop.user.id}/email`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { email: "Taken@example.com" },
    });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ error: "This email address is already in use" });
    const bad = await call(`/api/admin/users/${shop.user.id}/email`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { email: "nope" },
    });
    expect(await bad.json()).toEqual({ error: "Please enter a valid email address" });
    const ok = await call(`/api/admin/users/${shop.user.id}/email`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { email: "New@Example.com" },
    });
    expect(((await ok.json()) as AdminUser).email).toBe("new@example.com");
  });

  it("assigns a product version whose limits apply at once", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    const [tiny] = await db().insert(productVersions).values({ name: "Tiny", eventsLimit: 1 }).returning();
    const res = await call(`/api/admin/users/${shop.user.id}/product-version`, {
      method: "POST",
      apiKey: adminKey,
      json: { versionId: tiny!.id },
    });
    expect(((await res.json()) as AdminUser).productVersionName).toBe("Tiny");
    await add(shop.apiKey, "https://shop.test/a");
    const refused = await call("/api/mappings", {
      method: "POST",
      apiKey: shop.apiKey,
      json: { url: "https://shop.test/b", htmlContent: "" },
    });
    expect(refused.status).toBe(403);
    const unknown = await call(`/api/admin/users/${shop.user.id}/product-version`, {
      method: "POST",
      apiKey: adminKey,
      json: { versionId: 999 },
    });
    expect(unknown.status).toBe(404);
  });

  it("answers a key acting as the user by user id or by email, and mails the key or the verification again", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    for (const ref of [shop.user.id, encodeURIComponent("shop@example.com")]) {
      const { apiKey } = (await (await call(`/api/admin/users/${ref}/api-key`, { apiKey: adminKey })).json()) as {
        apiKey: string;
      };
      expect(await (await call("/api/auth", { apiKey })).json()).toMatchObject({ userId: shop.user.id });
    }
    await call(`/api/admin/users/${shop.user.id}/resend-api-key`, { method: "POST", apiKey: adminKey });
    expect(mails.texts().at(-1)).toContain(shop.apiKey);
    const res = await call(`/api/admin/users/${shop.user.id}/resend-verification`, {
      method: "POST",
      apiKey: adminKey,
    });
    expect(await res.json()).toEqual({ message: "Verification email sent successfully" });
    expect(mails.lastLink()).toMatch(/verify-email\?token=/);
  });
});

describe("the admin's resends when the mail cannot be sent", () => {
  it("answers 502 'We could not send the email', never 'sent'", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    await saveSmtpSettings(db(), secretKeys(env), {
      host: "localhost",
      port: 1,
      user: "mailer",
      password: "pw",
      from: "noreply@dc.test",
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const action of ["resend-api-key", "resend-verification"]) {
      const res = await call(`/api/admin/users/${shop.user.id}/${action}`, { method: "POST", apiKey: adminKey });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: "We could not send the email; please try again later" });
    }
    errors.mockRestore();
  });
});

describe("DELETE /api/admin/users/:userId", () => {
  it("deletes the user and all their data, keeps payments unlinked, and stops their snippet", async () => {
    const { apiKey: adminKey, user: admin } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    await add(shop.apiKey, "https://shop.test/a");
    await visit(shop.user.id, "https://shop.test/a");
    await db()
      .insert(paypalTransactions)
      .values({ transactionId: "T1", userId: shop.user.id, payerEmail: "shop@example.com" });
    const res = await call(`/api/admin/users/${shop.user.id}`, { method: "DELETE", apiKey: adminKey });
    expect(await res.json()).toEqual({ message: "User deleted successfully" });

    for (const table of [
      "url_mappings",
      "url_stats",
      "daily_usage",
      "mapping_stats",
      "usage_counters",
      "api_keys",
      "verification_tokens",
    ]) {
      const row = await env.DB.prepare(
        `select count(*) as n from ${table} where ${table === "mapping_stats" ? "1" : "user_id = ?"}`,
      )
        .bind(...(table === "mapping_stats" ? [] : [shop.user.id]))
        .first("n");
      expect(row, table).toBe(0);
    }
    expect((await db().select().from(paypalTransactions))[0]).toMatchObject({ transactionId: "T1", userId: null });
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(204);
    // Their delivery entries go too (and the state says there is nobody), in bounded steps of the repairs.
    await expectStoreMatchesD1(shop.user.id, "after the deletion");
    expect((await call("/api/auth", { apiKey: shop.apiKey })).status).toBe(401);
    const self = await call(`/api/admin/users/${admin.id}`, { method: "DELETE", apiKey: adminKey });
    expect(self.status).toBe(400);
  });
});

describe("/api/admin/mappings", () => {
  it("lists every customer's mappings with their email, and deletes any of them from delivery", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const a = await createVerifiedCustomer("a@example.com");
    const b = await createVerifiedCustomer("b@example.com");
    const ma = await add(a.apiKey, "https://a.test/");
    await add(b.apiKey, "https://b.test/");
    const all = (await (await call("/api/admin/mappings", { apiKey: adminKey })).json()) as AdminMapping[];
    expect(all.map((m) => m.userEmail).sort()).toEqual(["a@example.com", "b@example.com"]);
    const res = await call(`/api/admin/mappings/${ma.id}`, { method: "DELETE", apiKey: adminKey });
    expect(await res.json()).toEqual({ message: "Mapping deleted successfully" });
    expect(await visit(a.user.id, "https://a.test/")).toBe(204);
    expect((await call(`/api/admin/mappings/${ma.id}`, { method: "DELETE", apiKey: adminKey })).status).toBe(404);
  });
});
