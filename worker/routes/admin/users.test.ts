import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminMapping, AdminUser, AdminUserDetail, CustomerDashboard, Mapping } from "#contract/responses";
import { paypalTransactions, productVersions, usageCounters, users } from "../../db/schema";
import { secretKeys } from "../../lib/crypto";
import { saveSmtpSettings } from "../../models/smtp-config";
import { expectStoreMatchesD1 } from "../../test/delivery-store";
import {
  call,
  captureMails,
  createAdmin,
  createCustomerOnPlan,
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

describe("per-user limits (SPEC.md §5: uniqueUrlLimit, dynamicContentLimit)", () => {
  const setLimits = (adminKey: string, userId: string, json: unknown) =>
    call(`/api/admin/users/${userId}/limits`, { method: "PATCH", apiKey: adminKey, json });
  const dashboardLimits = async (apiKey: string) =>
    ((await (await call("/api/user/dashboard", { apiKey })).json()) as CustomerDashboard).limits;

  it("stores a websites limit that replaces the plan's when adding mappings, and null gives the plan's back", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createCustomerOnPlan({ websitesLimit: 3, eventsLimit: 10 });
    await setLimits(adminKey, shop.user.id, { requestLimit: 50 });
    const res = await setLimits(adminKey, shop.user.id, { uniqueUrlLimit: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      requestLimit: 50,
      uniqueUrlLimit: 1,
      eventsLimit: 10,
      limitOverrides: { uniqueUrlLimit: 1, dynamicContentLimit: null },
    });
    expect(await dashboardLimits(shop.apiKey)).toEqual({
      websitesLimit: 1,
      eventsLimit: 10,
      dynamicContentLimit: null,
    });
    expect((await add(shop.apiKey, "https://one.test/a")).id).toBeDefined();
    const refused = await call("/api/mappings", {
      method: "POST",
      apiKey: shop.apiKey,
      json: { url: "https://two.test/a", htmlContent: "" },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Your plan allows 1 website. Upgrade your plan to add two.test." });

    const back = (await (await setLimits(adminKey, shop.user.id, { uniqueUrlLimit: null })).json()) as AdminUser;
    expect(back).toMatchObject({ uniqueUrlLimit: 3, limitOverrides: { uniqueUrlLimit: null } });
    expect((await add(shop.apiKey, "https://two.test/a")).id).toBeDefined();
  });

  it("stores a dynamic-content limit that stops delivery past it; 0 is unlimited though the plan limits", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createCustomerOnPlan({ dynamicContentLimit: 100 });
    await add(shop.apiKey, "https://shop.test/a");
    const res = await setLimits(adminKey, shop.user.id, { dynamicContentLimit: 1 });
    expect(await res.json()).toMatchObject({ dynamicContentLimit: 1, limitOverrides: { dynamicContentLimit: 1 } });
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(200);
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(204);

    await setLimits(adminKey, shop.user.id, { dynamicContentLimit: 0 });
    expect(await dashboardLimits(shop.apiKey)).toMatchObject({ dynamicContentLimit: null });
    expect(await visit(shop.user.id, "https://shop.test/a")).toBe(200);
    const stored = (await db().select().from(users).where(eq(users.id, shop.user.id)))[0]!;
    expect({ ...stored }).toMatchObject({ dynamicContentLimit: 0, websitesLimit: null, requestLimit: null });
  });

  it("refuses with 400 naming the field, changing nothing: bad values, a limit it does not store, an empty body", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    const refusals: [unknown, string][] = [
      [{ uniqueUrlLimit: -1 }, "uniqueUrlLimit must be at least 0"],
      [{ dynamicContentLimit: 2.5 }, "dynamicContentLimit must be a whole number"],
      [{ dynamicContentLimit: "5" }, "dynamicContentLimit must be a number or null"],
      [
        { requestLimit: 5, eventsLimit: 5 },
        "eventsLimit: not a per-user limit (give requestLimit, uniqueUrlLimit, dynamicContentLimit)",
      ],
      [{}, "Give at least one of requestLimit, uniqueUrlLimit, dynamicContentLimit"],
    ];
    for (const [json, error] of refusals) {
      const res = await setLimits(adminKey, shop.user.id, json);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    const stored = (await db().select().from(users).where(eq(users.id, shop.user.id)))[0]!;
    expect({ ...stored }).toMatchObject({ requestLimit: null, websitesLimit: null, dynamicContentLimit: null });
  });
});

describe("validation messages of the admin user routes name the field", () => {
  it("names it in the routes' own messages and in zod's", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const shop = await createVerifiedCustomer("shop@example.com");
    const cases: [string, string, unknown, string][] = [
      ["PATCH", "status", { isActive: "yes" }, "isActive must be true or false"],
      ["PATCH", "limits", { requestLimit: "ten" }, "requestLimit must be a number or null"],
      ["PATCH", "limit", {}, "limit must be a number or null"],
      ["POST", "product-version", { versionId: "1" }, "versionId must be a number"],
    ];
    for (const [method, path, json, error] of cases) {
      const res = await call(`/api/admin/users/${shop.user.id}/${path}`, { method, apiKey: adminKey, json });
      expect(await res.json()).toEqual({ error });
    }
    const sorted = await call("/api/admin/users?sortBy=nothing", { apiKey: adminKey });
    expect(sorted.status).toBe(400);
    expect(((await sorted.json()) as { error: string }).error).toMatch(/^sortBy: Invalid option/);
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
