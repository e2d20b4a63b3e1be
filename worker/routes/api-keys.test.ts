import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { maskApiKey } from "#contract/api-key-mask";
import type { AuditEvent, ImpersonationResponse } from "#contract/responses";
import { apiKeys, users } from "../db/schema";
import { THROTTLES } from "../auth/throttle";
import { secretKeys } from "../lib/crypto";
import { ensureCustomerKey, IMPERSONATION_KEY_TTL_MS } from "../models/api-keys";
import { ensureCustomer, markEmailVerified } from "../models/users";
import { runDaily } from "../scheduled";
import { call, captureMails, createAdmin, createVerifiedCustomer, db } from "../test/helpers";

afterEach(() => {
  vi.useRealTimers();
});

const rotate = (apiKey: string) => call("/api/user/api-key/rotate", { method: "POST", apiKey });

/** The console's "Login": GET /api/admin/users/:userIdOrEmail/api-key answers a key that acts as the customer. */
async function impersonate(adminKey: string, userIdOrEmail: string) {
  return call(`/api/admin/users/${encodeURIComponent(userIdOrEmail)}/api-key`, { apiKey: adminKey });
}

describe("POST /api/user/api-key/rotate", () => {
  it("gives a customer a new key; the old one stops working at once", async () => {
    const { apiKey: old } = await createVerifiedCustomer("c@example.com");
    const res = await rotate(old);
    expect(res.status).toBe(200);
    const { apiKey } = (await res.json()) as { apiKey: string };
    expect(apiKey).toMatch(/^dc_/);
    expect(apiKey).not.toBe(old);
    expect((await call("/api/auth", { apiKey: old })).status).toBe(401);
    expect((await call("/api/auth", { apiKey })).status).toBe(200);
    expect(await (await call("/api/user/dashboard", { apiKey })).json()).toMatchObject({ apiKey });
  });

  it("gives an admin a new key and ends every other session of theirs", async () => {
    const admin = await createAdmin();
    const other = (await (
      await call("/api/admin/login", { method: "POST", json: { email: admin.user.email, password: admin.password } })
    ).json()) as { apiKey: string };
    const { apiKey } = (await (await rotate(admin.apiKey)).json()) as { apiKey: string };
    expect((await call("/api/admin/users", { apiKey: admin.apiKey })).status).toBe(401);
    expect((await call("/api/admin/users", { apiKey: other.apiKey })).status).toBe(401);
    expect((await call("/api/admin/users", { apiKey })).status).toBe(200);
  });

  it("is refused to an admin acting as the customer", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    const { apiKey } = (await (await impersonate(admin.apiKey, customer.user.id)).json()) as ImpersonationResponse;
    const res = await rotate(apiKey);
    expect(res.status).toBe(403);
    expect((await call("/api/auth", { apiKey: customer.apiKey })).status).toBe(200);
  });
});

describe("POST /api/admin/users/:userId/revoke-api-key", () => {
  it("voids the customer's key and any impersonation of them, records it, and the next login issues a new key", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    const { apiKey: acting } = (await (
      await impersonate(admin.apiKey, customer.user.id)
    ).json()) as ImpersonationResponse;
    const res = await call(`/api/admin/users/${customer.user.id}/revoke-api-key`, {
      method: "POST",
      apiKey: admin.apiKey,
    });
    expect(res.status).toBe(200);
    expect((await call("/api/auth", { apiKey: customer.apiKey })).status).toBe(401);
    expect((await call("/api/auth", { apiKey: acting })).status).toBe(401);
    const detail = (await (await call(`/api/admin/users/${customer.user.id}`, { apiKey: admin.apiKey })).json()) as {
      apiKey: string | null;
    };
    expect(detail.apiKey).toBeNull();

    const mails = captureMails();
    const requested = await call("/api/login/request-otp", { method: "POST", json: { email: "c@example.com" } });
    const cookie = requested.headers.get("Set-Cookie")!.split(";")[0]!;
    const code = mails
      .texts()
      .at(-1)!
      .match(/login code is (\d{5})/)![1]!;
    mails.restore();
    const login = await call("/api/login/verify-otp", { method: "POST", json: { code }, headers: { Cookie: cookie } });
    const { apiKey } = (await login.json()) as { apiKey: string };
    expect(apiKey).not.toBe(customer.apiKey);
    expect((await call("/api/auth", { apiKey })).status).toBe(200);

    const events = (await (await call("/api/admin/audit-events", { apiKey: admin.apiKey })).json()) as AuditEvent[];
    expect(events.map((e) => e.action)).toEqual(["revoke-api-key", "impersonate"]);
  });

  it("cannot target an admin", async () => {
    const admin = await createAdmin();
    const other = await createAdmin("other@example.com");
    const res = await call(`/api/admin/users/${other.user.id}/revoke-api-key`, {
      method: "POST",
      apiKey: admin.apiKey,
    });
    expect(res.status).toBe(403);
    expect((await call("/api/auth", { apiKey: other.apiKey })).status).toBe(200);
  });
});

describe("an admin's view of keys", () => {
  it("shows a customer's key and the admin's own, never another admin's", async () => {
    const admin = await createAdmin();
    const other = await createAdmin("other@example.com");
    const customer = await createVerifiedCustomer("c@example.com");
    const detail = (id: string) =>
      call(`/api/admin/users/${id}`, { apiKey: admin.apiKey }).then(
        (r) => r.json() as Promise<{ apiKey: string | null }>,
      );
    expect((await detail(customer.user.id)).apiKey).toBe(customer.apiKey);
    expect((await detail(admin.user.id)).apiKey).toBe(admin.apiKey);
    expect((await detail(other.user.id)).apiKey).toBeNull();

    expect(await (await impersonate(admin.apiKey, admin.user.email)).json()).toEqual({ apiKey: admin.apiKey });
    for (const ref of [other.user.id, other.user.email]) {
      const res = await impersonate(admin.apiKey, ref);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Admins cannot read another admin's API key" });
    }
    const list = (await (await call("/api/admin/users", { apiKey: admin.apiKey })).json()) as { apiKey: unknown }[];
    expect(list.every((u) => u.apiKey === null)).toBe(true);
  });

  it("never gives an admin acting as the customer the customer's permanent key", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    const { apiKey: acting } = (await (
      await impersonate(admin.apiKey, customer.user.id)
    ).json()) as ImpersonationResponse;
    const dashboard = (await (await call("/api/user/dashboard", { apiKey: acting })).json()) as { apiKey: string };
    expect(dashboard.apiKey).toBe(maskApiKey(customer.apiKey));
    expect(dashboard.apiKey).not.toContain(customer.apiKey.slice(3, -4));
    // The customer themselves still see their whole key.
    expect(await (await call("/api/user/dashboard", { apiKey: customer.apiKey })).json()).toMatchObject({
      apiKey: customer.apiKey,
    });
    // Under the impersonation key the admin's own view of the key stays closed.
    expect((await call(`/api/admin/users/${customer.user.id}`, { apiKey: acting })).status).toBe(403);
  });

  it("mails no key and no verification link to an admin", async () => {
    const admin = await createAdmin();
    const other = await createAdmin("other@example.com");
    for (const action of ["resend-api-key", "resend-verification"]) {
      const res = await call(`/api/admin/users/${other.user.id}/${action}`, { method: "POST", apiKey: admin.apiKey });
      expect(res.status, action).toBe(403);
    }
  });
});

describe("impersonation: GET /api/admin/users/:userIdOrEmail/api-key", () => {
  it("answers a key that acts as the customer for an hour, and records who, whom and when", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    const before = Date.now();
    const res = await impersonate(admin.apiKey, customer.user.email);
    expect(res.status).toBe(200);
    const { apiKey, expiresAt } = (await res.json()) as ImpersonationResponse;
    expect(apiKey).not.toBe(customer.apiKey);
    expect(new Date(expiresAt).getTime()).toBeGreaterThanOrEqual(before + IMPERSONATION_KEY_TTL_MS);
    expect(await (await call("/api/auth", { apiKey })).json()).toMatchObject({
      userId: customer.user.id,
      role: "user",
    });
    expect((await call("/api/admin/users", { apiKey })).status).toBe(403);

    const events = await call("/api/admin/audit-events?action=impersonate", { apiKey: admin.apiKey });
    expect(events.headers.get("X-Total-Count")).toBe("1");
    expect(await events.json()).toEqual([
      {
        id: expect.any(Number),
        action: "impersonate",
        actorEmail: admin.user.email,
        targetId: customer.user.id,
        targetEmail: "c@example.com",
        createdAt: expect.any(String),
      },
    ]);

    vi.useFakeTimers({ now: Date.now() + IMPERSONATION_KEY_TTL_MS + 1000, toFake: ["Date"] });
    expect((await call("/api/auth", { apiKey })).status).toBe(401);
    await runDaily(env, new Date());
    expect(await db().select().from(apiKeys).where(eq(apiKeys.kind, "impersonation"))).toEqual([]);
  });

  it("stops working when the admin is deactivated", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    const { apiKey } = (await (await impersonate(admin.apiKey, customer.user.id)).json()) as ImpersonationResponse;
    await db().update(users).set({ isActive: false }).where(eq(users.id, admin.user.id));
    expect((await call("/api/auth", { apiKey })).status).toBe(401);
  });

  it("cannot target an admin or an inactive customer", async () => {
    const admin = await createAdmin();
    const other = await createAdmin("other@example.com");
    const res = await impersonate(admin.apiKey, other.user.id);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Admins cannot read another admin's API key" });
    const customer = await createVerifiedCustomer("c@example.com");
    await db().update(users).set({ isActive: false }).where(eq(users.id, customer.user.id));
    expect((await impersonate(admin.apiKey, customer.user.id)).status).toBe(409);
    const events = await call("/api/admin/audit-events", { apiKey: admin.apiKey });
    expect(await events.json()).toEqual([]);
  });

  it("works for a customer whose email is not verified yet, without giving them a key", async () => {
    const admin = await createAdmin();
    await call("/api/register", { method: "POST", json: { email: "new@example.com" } });
    const user = (await db().query.users.findFirst({ where: eq(users.email, "new@example.com") }))!;
    const { apiKey } = (await (await impersonate(admin.apiKey, user.id)).json()) as ImpersonationResponse;
    const dashboard = await call("/api/user/dashboard", { apiKey });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.json()).toMatchObject({ email: "new@example.com", apiKey: "" });
  });
});

describe("GET /api/admin/audit-events", () => {
  it("pages with limit and offset and answers the total in X-Total-Count", async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    for (let i = 0; i < 3; i++) await impersonate(admin.apiKey, customer.user.id);
    const page = await call("/api/admin/audit-events?limit=2&offset=2", { apiKey: admin.apiKey });
    expect(page.headers.get("X-Total-Count")).toBe("3");
    expect(await page.json()).toHaveLength(1);
    const bad = await call("/api/admin/audit-events?limit=1001", { apiKey: admin.apiKey });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "limit must be at most 1,000" });
  });
});

describe("the admin's resends", () => {
  it(`are throttled per customer: ${THROTTLES.resend.perAccount.max} an hour, then 429 with Retry-After`, async () => {
    const admin = await createAdmin();
    const customer = await createVerifiedCustomer("c@example.com");
    const mails = captureMails();
    for (let i = 0; i < THROTTLES.resend.perAccount.max; i++) {
      const action = i % 2 ? "resend-api-key" : "resend-verification";
      const res = await call(`/api/admin/users/${customer.user.id}/${action}`, {
        method: "POST",
        apiKey: admin.apiKey,
      });
      expect(res.status, action).toBe(200);
    }
    const refused = await call(`/api/admin/users/${customer.user.id}/resend-api-key`, {
      method: "POST",
      apiKey: admin.apiKey,
    });
    const sent = mails.texts();
    mails.restore();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Too many emails requested. Please try again in an hour." });
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(sent).toHaveLength(THROTTLES.resend.perAccount.max);
  });
});

describe("a customer's one key", () => {
  it("is issued once however many first uses race for it", async () => {
    const user = await ensureCustomer(db(), "race@example.com");
    await markEmailVerified(db(), user);
    const keys = await Promise.all(Array.from({ length: 5 }, () => ensureCustomerKey(db(), secretKeys(env), user.id)));
    expect(new Set(keys).size).toBe(1);
    const rows = await db().select().from(apiKeys).where(eq(apiKeys.userId, user.id));
    expect(rows).toHaveLength(1);
    expect((await call("/api/auth", { apiKey: keys[0] })).status).toBe(200);
  });
});
