import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { THROTTLES } from "../auth/throttle";
import { users, verificationTokens } from "../db/schema";
import { recordMailFailure } from "../models/mail-failures";
import { UNVERIFIED_SIGNUP_TTL_MS } from "../models/users";
import { createVerificationToken, VERIFICATION_TTL_MS } from "../models/verification-tokens";
import { runDaily } from "../scheduled";
import { call, captureMails, createAdmin, createVerifiedCustomer, db } from "../test/helpers";

let mails: ReturnType<typeof captureMails>;
beforeEach(() => {
  mails = captureMails();
});
afterEach(() => mails.restore());

async function register(email: string, page?: string) {
  return call("/api/register", { method: "POST", json: page === undefined ? { email } : { email, page } });
}

function tokenOf(link: string | undefined) {
  return new URL(link!).searchParams.get("token")!;
}

describe("POST /api/register", () => {
  it("creates an unverified user and mails a verification link to the SPA's verify page", async () => {
    const res = await register("New@Example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Verification email sent", email: "new@example.com" });
    const user = await db().query.users.findFirst({ where: eq(users.email, "new@example.com") });
    expect(user?.emailVerified).toBe(false);
    expect(mails.lastLink()).toMatch(/^http:\/\/dc\.test\/verify-email\?token=/);
  });

  it("links a sign-up on page B back to page B, whose token verifies there", async () => {
    const res = await register("landing@example.com", "register-form");
    expect(res.status).toBe(200);
    const link = mails.lastLink();
    expect(link).toMatch(/^http:\/\/dc\.test\/register-form\?token=[^&\s]+$/);
    const verified = await call(`/api/verify-email?token=${encodeURIComponent(tokenOf(link))}`);
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ email: "landing@example.com", keyMailed: true });
    // Verified again (key recovery): the key is answered, and the answer says no mail went out.
    await register("landing@example.com", "register-form");
    const again = await call(`/api/verify-email?token=${encodeURIComponent(tokenOf(mails.lastLink()))}`);
    expect(await again.json()).toMatchObject({ email: "landing@example.com", keyMailed: false });
    expect(mails.texts().filter((t) => t.includes("subject: Your Dynamic Content API key"))).toHaveLength(1);
  });

  it("links page A's sign-up to page A's verify screen when the page is named", async () => {
    await register("named@example.com", "register");
    expect(mails.lastLink()).toMatch(/^http:\/\/dc\.test\/verify-email\?token=/);
  });

  it("refuses an unknown page with a message, creating and mailing nothing", async () => {
    const res = await register("odd@example.com", "https://evil.test/");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Unknown registration page" });
    expect(await db().select().from(users)).toHaveLength(0);
    expect(mails.texts()).toHaveLength(0);
  });

  it("sends later verification links (login request, admin resend) to page A, whatever page signed up", async () => {
    await register("later@example.com", "register-form");
    expect(mails.lastLink()).toContain("/register-form?token=");

    await call("/api/login/request-otp", { method: "POST", json: { email: "later@example.com" } });
    expect(mails.lastLink()).toMatch(/^http:\/\/dc\.test\/verify-email\?token=/);

    const { apiKey } = await createAdmin();
    const user = (await db().query.users.findFirst({ where: eq(users.email, "later@example.com") }))!;
    // Another page-B sign-up in between, so the last link can only be page A's if the resend sent it.
    await register("other@example.com", "register-form");
    const resend = await call(`/api/admin/users/${user.id}/resend-verification`, { method: "POST", apiKey });
    expect(resend.status).toBe(200);
    expect(mails.lastLink()).toMatch(/^http:\/\/dc\.test\/verify-email\?token=/);
  });

  it("re-sends the link for a known address without creating a second user", async () => {
    await register("again@example.com");
    await register("again@example.com");
    const rows = await db().select().from(users).where(eq(users.email, "again@example.com"));
    expect(rows).toHaveLength(1);
    expect(mails.texts().filter((t) => t.includes("to again@example.com"))).toHaveLength(2);
  });

  it("answers an admin's address the same way and mails nothing: no link ever yields an admin's key", async () => {
    await createAdmin("root@example.com");
    const res = await register("root@example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Verification email sent", email: "root@example.com" });
    expect(mails.texts()).toHaveLength(0);
    expect(await db().select().from(verificationTokens)).toHaveLength(0);
  });

  it("tells every address alike that no mail can be sent while the transport is failing, and creates nothing", async () => {
    await createVerifiedCustomer("known@example.com");
    await recordMailFailure(db(), { kind: "verification", to: "x@example.com", error: "SMTP: down", blocksMail: true });

    for (const email of ["known@example.com", "unknown@example.com"]) {
      const res = await register(email);
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(await res.json()).toEqual({ error: "We could not send the email; please try again later" });
    }
    expect(await db().query.users.findFirst({ where: eq(users.email, "unknown@example.com") })).toBeUndefined();
    expect(mails.texts()).toHaveLength(0);
  });

  it(`throttles ${THROTTLES.registration.perAccount.max} registrations per address per hour, with Retry-After`, async () => {
    for (let i = 0; i < THROTTLES.registration.perAccount.max; i++) {
      expect((await register("again@example.com")).status).toBe(200);
    }
    const res = await register("again@example.com");
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: "Too many registration requests. Please try again in an hour." });
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  it("makes one account of parallel registrations of one address", async () => {
    const answers = await Promise.all([1, 2, 3].map(() => register("race@example.com")));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await db().select().from(users).where(eq(users.email, "race@example.com"))).toHaveLength(1);
  });

  it("refuses an invalid email with SPEC.md's message and creates nothing", async () => {
    const res = await register("not-an-email");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Please enter a valid email address" });
    expect(await db().select().from(users)).toHaveLength(0);
  });

  it("answers malformed JSON with a 400 and a message", async () => {
    const res = await call("/api/register", {
      method: "POST",
      body: "{",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect((await res.json()) as object).toHaveProperty("error");
  });
});

describe("GET /api/verify-email", () => {
  it("verifies the email, issues an API key that works, and mails it", async () => {
    await register("owner@example.com");
    const res = await call(`/api/verify-email?token=${tokenOf(mails.lastLink())}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { apiKey: string; email: string };
    expect(body.email).toBe("owner@example.com");
    expect(body.apiKey).toMatch(/^dc_[A-Za-z0-9_-]{43}$/);
    const auth = await call("/api/auth", { apiKey: body.apiKey });
    expect(await auth.json()).toMatchObject({ email: "owner@example.com", role: "user" });
    expect(mails.texts().some((t) => t.includes(body.apiKey))).toBe(true);
    const user = await db().query.users.findFirst({ where: eq(users.email, "owner@example.com") });
    expect(user?.emailVerified).toBe(true);
    expect(user?.billingPeriodEnd!.getTime()).toBeGreaterThan(user!.billingPeriodStart!.getTime());
  });

  it("refuses a link made for an admin's account", async () => {
    const admin = await createAdmin("root@example.com");
    const token = await createVerificationToken(db(), admin.user.id);
    const res = await call(`/api/verify-email?token=${token}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid or expired verification link" });
  });

  it("answers a verified customer's existing key again (key recovery) without mailing it again", async () => {
    await register("owner@example.com");
    const first = (await (await call(`/api/verify-email?token=${tokenOf(mails.lastLink())}`)).json()) as {
      apiKey: string;
    };
    await register("owner@example.com");
    const mailsBefore = mails.texts().length;
    const again = await call(`/api/verify-email?token=${tokenOf(mails.lastLink())}`);
    expect(await again.json()).toMatchObject({ apiKey: first.apiKey });
    expect(mails.texts()).toHaveLength(mailsBefore);
  });

  it("refuses a token the second time", async () => {
    await register("twice@example.com");
    const token = tokenOf(mails.lastLink());
    expect((await call(`/api/verify-email?token=${token}`)).status).toBe(200);
    const again = await call(`/api/verify-email?token=${token}`);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: "Invalid or expired verification link" });
  });

  it("refuses an unknown token", async () => {
    const res = await call("/api/verify-email?token=nope");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid or expired verification link" });
  });

  it("refuses a token older than 24 hours and leaves the email unverified", async () => {
    await register("late@example.com");
    const user = (await db().query.users.findFirst({ where: eq(users.email, "late@example.com") }))!;
    const token = await createVerificationToken(db(), user.id, Date.now() - VERIFICATION_TTL_MS - 1000);
    const res = await call(`/api/verify-email?token=${token}`);
    expect(res.status).toBe(400);
    const after = await db().query.users.findFirst({ where: eq(users.id, user.id) });
    expect(after?.emailVerified).toBe(false);
  });

  it("requires a token", async () => {
    const res = await call("/api/verify-email");
    expect(res.status).toBe(400);
    expect(await db().select().from(verificationTokens)).toHaveLength(0);
  });
});

describe("unverified sign-ups", () => {
  it("are deleted by the daily cron a week after signing up, with their tokens; verified and newer ones stay", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await register("stale@example.com");
    const [stale] = await db().select().from(users).where(eq(users.email, "stale@example.com"));
    await register("verified@example.com");
    const link = mails.lastLink();
    expect((await call(`/api/verify-email?token=${tokenOf(link)}`)).status).toBe(200);
    const weekAgo = new Date(Date.now() - UNVERIFIED_SIGNUP_TTL_MS - 60_000);
    await db().update(users).set({ createdAt: weekAgo });
    await register("fresh@example.com");

    await runDaily(env, new Date());
    const left = await db().select({ email: users.email }).from(users).orderBy(users.email);
    expect(left.map((u) => u.email)).toEqual(["fresh@example.com", "verified@example.com"]);
    expect(await db().select().from(verificationTokens).where(eq(verificationTokens.userId, stale!.id))).toEqual([]);
    // The address is free again: signing up anew works as the first time.
    expect((await register("stale@example.com")).status).toBe(200);
    errors.mockRestore();
  });
});
