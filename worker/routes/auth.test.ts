import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../db/schema";
import { call, createAdmin, createVerifiedCustomer, db } from "../test/helpers";

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
  it("answers the admin's key and role for the right password", async () => {
    const admin = await createAdmin("Root@Example.com", "s3cret-password");
    const res = await call("/api/admin/login", {
      method: "POST",
      json: { email: "root@example.com", password: "s3cret-password" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { apiKey: string; user: { role: string } };
    expect(body.apiKey).toBe(admin.apiKey);
    expect(body.user.role).toBe("admin");
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

describe("requireAdmin", () => {
  it("refuses a customer's key with 403 and admits an admin", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await call("/api/smtp-config", { apiKey })).status).toBe(403);
    const admin = await createAdmin();
    expect((await call("/api/smtp-config", { apiKey: admin.apiKey })).status).toBe(200);
  });
});
