import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { THROTTLES } from "../auth/throttle";
import { loginAttempts, users } from "../db/schema";
import { ADMIN_KEY_TTL_MS } from "../models/api-keys";
import { upsertAdmin } from "../models/users";
import { call, createAdmin, createVerifiedCustomer, db } from "../test/helpers";

afterEach(() => {
  vi.useRealTimers();
});

const adminLogin = (email: string, password: string, ip = "198.51.100.1") =>
  call("/api/admin/login", { method: "POST", json: { email, password }, headers: { "CF-Connecting-IP": ip } });

describe("GET /api/auth (requireUser)", () => {
  it("refuses a request without a key", async () => {
    const res = await call("/api/auth");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "API key required" });
  });

  it("refuses an unknown key", async () => {
    const res = await call("/api/auth", { apiKey: "dc_unknown" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid API key" });
  });

  it("answers the key's user and role", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await call("/api/auth", { apiKey });
    expect(await res.json()).toEqual({ userId: user.id, email: "c@example.com", role: "user" });
  });

  it("refuses an inactive user's key", async () => {
    const { user, apiKey } = await createVerifiedCustomer("off@example.com");
    await db().update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const res = await call("/api/auth", { apiKey });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "This account is inactive" });
  });
});

describe("POST /api/admin/login", () => {
  it("answers a fresh admin key and the role for the right password, and records the attempt", async () => {
    const admin = await createAdmin("Root@Example.com", "s3cret-password");
    const res = await adminLogin("root@example.com", "s3cret-password");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { apiKey: string; user: { role: string } };
    expect(body.apiKey).toMatch(/^dc_/);
    expect(body.apiKey).not.toBe(admin.apiKey);
    expect(body.user.role).toBe("admin");
    expect(await (await call("/api/auth", { apiKey: body.apiKey })).json()).toMatchObject({ role: "admin" });
    const attempts = await db().select().from(loginAttempts).where(eq(loginAttempts.userId, admin.user.id));
    expect(attempts).toMatchObject([{ success: true, ipAddress: "198.51.100.1" }]);
  });

  it("names the client by Cloudflare's CF-Connecting-IP only, and keeps at most 512 characters of its user agent", async () => {
    const admin = await createAdmin("root@example.com", "s3cret-password");
    const res = await call("/api/admin/login", {
      method: "POST",
      json: { email: "root@example.com", password: "wrong" },
      headers: { "X-Real-IP": "192.0.2.66", "X-Forwarded-For": "192.0.2.67", "User-Agent": "x".repeat(5_000) },
    });
    expect(res.status).toBe(401);
    const [attempt] = await db().select().from(loginAttempts).where(eq(loginAttempts.userId, admin.user.id));
    expect(attempt).toMatchObject({ success: false, ipAddress: null });
    expect(attempt!.userAgent).toHaveLength(512);
  });

  it("throttles an IPv6 client by its /64, whichever address of it asks", async () => {
    const max = THROTTLES["admin-login"].perIp.max;
    for (let i = 0; i < max; i++) {
      // A new account every few tries: only the network's throttle is reached, never an account's.
      const res = await adminLogin(
        `nobody${Math.floor(i / 5)}@example.com`,
        "guess",
        `2001:db8:7:9::${i.toString(16)}`,
      );
      expect(res.status).toBe(401);
    }
    const refused = await adminLogin("someone@example.com", "guess", "2001:db8:7:9:ffff:ffff:ffff:1");
    expect(refused.status).toBe(429);
    // Another /64 is another client.
    expect((await adminLogin("someone@example.com", "guess", "2001:db8:7:a::1")).status).toBe(401);
  });

  it(`ends the admin's session ${ADMIN_KEY_TTL_MS / 3_600_000} hours after the login`, async () => {
    await createAdmin("root@example.com", "s3cret-password");
    const { apiKey } = (await (await adminLogin("root@example.com", "s3cret-password")).json()) as { apiKey: string };
    vi.useFakeTimers({ now: Date.now() + ADMIN_KEY_TTL_MS - 60_000, toFake: ["Date"] });
    expect((await call("/api/auth", { apiKey })).status).toBe(200);
    vi.setSystemTime(Date.now() + 120_000);
    const res = await call("/api/auth", { apiKey });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Your session has expired. Please sign in again." });
  });

  it("does not let ten wrong passwords from one address keep the admin out from another, and refuses that one address with Retry-After", async () => {
    await createAdmin("root@example.com", "s3cret-password");
    const perPair = THROTTLES["admin-login"].perAccountAndIp.max;
    for (let i = 0; i < perPair + 2; i++) {
      expect((await adminLogin("root@example.com", "wrong", "198.51.100.66")).status).toBe(i < perPair ? 401 : 429);
    }
    expect((await adminLogin("root@example.com", "s3cret-password", "203.0.113.5")).status).toBe(200);
    const refused = await adminLogin("root@example.com", "s3cret-password", "198.51.100.66");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Too many sign-in attempts. Please try again in 15 minutes." });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(14 * 60);
    expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(15 * 60);
  });

  it("counts only failures against the account: the admin signs in again and again from one address", async () => {
    await createAdmin("root@example.com", "s3cret-password");
    for (let i = 0; i < THROTTLES["admin-login"].perAccountAndIp.max + 2; i++) {
      expect((await adminLogin("root@example.com", "s3cret-password")).status).toBe(200);
    }
    expect((await adminLogin("root@example.com", "wrong")).status).toBe(401);
  });

  it(`refuses every address once the account has ${THROTTLES["admin-login"].perAccount.max} failures in 15 minutes, known or not`, async () => {
    await createAdmin("root@example.com", "s3cret-password");
    const { perAccount, perAccountAndIp } = THROTTLES["admin-login"];
    for (const email of ["root@example.com", "nobody@example.com"]) {
      for (let i = 0; i < perAccount.max; i++) {
        const ip = `198.51.${Math.floor(i / perAccountAndIp.max)}.${i % perAccountAndIp.max}`;
        expect((await adminLogin(email, "wrong", ip)).status).toBe(401);
      }
      const refused = await adminLogin(email, "s3cret-password", "203.0.113.200");
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: "Too many sign-in attempts. Please try again in 15 minutes." });
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(14 * 60);
    }
  }, 60_000);

  it(`throttles ${THROTTLES["admin-login"].perIp.max} tries per IP`, async () => {
    for (let i = 0; i < THROTTLES["admin-login"].perIp.max; i++) {
      expect((await adminLogin(`guess${i}@example.com`, "wrong")).status).toBe(401);
    }
    const refused = await adminLogin("another@example.com", "wrong");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await adminLogin("another@example.com", "wrong", "203.0.113.9")).status).toBe(401);
  });

  it("refuses a wrong password", async () => {
    await createAdmin("root@example.com", "s3cret-password");
    const res = await call("/api/admin/login", {
      method: "POST",
      json: { email: "root@example.com", password: "nope" },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid email or password" });
  });

  it("refuses a customer, who has no password", async () => {
    await createVerifiedCustomer("c@example.com");
    const res = await call("/api/admin/login", { method: "POST", json: { email: "c@example.com", password: "x" } });
    expect(res.status).toBe(401);
  });

  it("requires email and password", async () => {
    const res = await call("/api/admin/login", { method: "POST", json: { email: "root@example.com" } });
    expect(res.status).toBe(400);
  });

  it("stores the password hashed with PBKDF2, never in plain text", async () => {
    const admin = await createAdmin("root@example.com", "s3cret-password");
    expect(admin.user.passwordHash).toMatch(/^pbkdf2\$100000\$[\w-]+\$[\w-]+$/);
    expect(admin.user.passwordHash).not.toContain("s3cret-password");
  });
});

describe("keys and roles", () => {
  it("does not admit as an admin the customer key of an account that was made admin later", async () => {
    const { user, apiKey } = await createVerifiedCustomer("promoted@example.com");
    await upsertAdmin(db(), user.email, "pbkdf2$1$AA$AA");
    const res = await call("/api/auth", { apiKey });
    expect(res.status).toBe(401);
    expect((await call("/api/smtp-config", { apiKey })).status).toBe(401);
  });
});

describe("requireAdmin", () => {
  it("refuses a customer's key with 403 and admits an admin", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await call("/api/smtp-config", { apiKey })).status).toBe(403);
    const admin = await createAdmin();
    expect((await call("/api/smtp-config", { apiKey: admin.apiKey })).status).toBe(200);
  });
});
