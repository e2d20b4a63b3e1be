import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LOGIN_MAILS_PER_ACCOUNT, THROTTLES, WRONG_CODE_LOCK } from "../auth/throttle";
import { loginAttempts, loginOtpCodes, users } from "../db/schema";
import { issueLoginCode, LOGIN_CODE_TTL_MS } from "../models/login-codes";
import { recordMailFailure } from "../models/mail-failures";
import { call, captureMails, createAdmin, createVerifiedCustomer, db } from "../test/helpers";

const CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR = THROTTLES["code-request"].perAccountAndIp.max;
const CODE_REQUESTS_PER_IP_PER_HOUR = THROTTLES["code-request"].perIp.max;

let mails: ReturnType<typeof captureMails>;
beforeEach(() => {
  mails = captureMails();
});
afterEach(() => {
  mails.restore();
  vi.useRealTimers();
});

async function requestCode(email: string, ip = "203.0.113.7") {
  const res = await call("/api/login/request-otp", {
    method: "POST",
    json: { email },
    headers: { "CF-Connecting-IP": ip },
  });
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  return { res, cookie: setCookie.split(";")[0]! };
}

async function verify(cookie: string | undefined, code: string) {
  return call("/api/login/verify-otp", {
    method: "POST",
    json: { code },
    headers: { ...(cookie ? { Cookie: cookie } : {}), "CF-Connecting-IP": "203.0.113.7", "User-Agent": "test-agent" },
  });
}

function mailedCode() {
  const match = mails
    .texts()
    .at(-1)
    ?.match(/login code is (\d{5})/);
  return match?.[1];
}

const wrongCode = (code: string) => String((Number(code) + 1) % 100_000).padStart(5, "0");

describe("POST /api/login/request-otp", () => {
  it("tells every address alike that no mail can be sent while the transport is failing: no code, no cookie", async () => {
    const customer = await createVerifiedCustomer("c@example.com");
    await recordMailFailure(db(), { kind: "login-code", to: "x@example.com", error: "SMTP: down", blocksMail: true });

    for (const email of ["c@example.com", "nobody@example.com"]) {
      const { res } = await requestCode(email);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "We could not send the email; please try again later" });
      expect(res.headers.get("Set-Cookie")).toBeNull();
    }
    expect(await db().select().from(loginOtpCodes).where(eq(loginOtpCodes.userId, customer.user.id))).toEqual([]);
    expect(mails.texts()).toHaveLength(0);
  });

  it("mails a 5-digit code, answers the email and sets a signed HttpOnly SameSite cookie", async () => {
    await createVerifiedCustomer("c@example.com");
    const { res } = await requestCode("c@example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Login code sent", email: "c@example.com" });
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^dc_login=/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(mailedCode()).toMatch(/^\d{5}$/);
  });

  it("stores the code hashed, never in plain text", async () => {
    await createVerifiedCustomer("c@example.com");
    await requestCode("c@example.com");
    const stored = await env.DB.prepare("select code from login_otp_codes").first<{ code: string }>();
    expect(stored!.code).not.toContain(mailedCode()!);
    expect(stored!.code).toMatch(/^[0-9a-f]{64}$/);
  });

  it("answers an unknown address the same way, and sends nothing", async () => {
    const { res } = await requestCode("nobody@example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Login code sent", email: "nobody@example.com" });
    expect(mails.texts()).toHaveLength(0);
  });

  it("sends an unverified address its verification link instead of a code", async () => {
    await call("/api/register", { method: "POST", json: { email: "new@example.com" } });
    const before = mails.texts().length;
    const { res } = await requestCode("new@example.com");
    expect(res.status).toBe(200);
    expect(mails.texts()).toHaveLength(before + 1);
    expect(mails.texts().at(-1)).toContain("verify-email?token=");
    expect(mailedCode()).toBeUndefined();
  });

  it(`allows ${CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR} requests per email from one address per hour, then answers 429`, async () => {
    await createVerifiedCustomer("c@example.com");
    for (let i = 0; i < CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR; i++) {
      expect((await requestCode("c@example.com", "198.51.100.9")).res.status).toBe(200);
    }
    const { res } = await requestCode("c@example.com", "198.51.100.9");
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: "Too many login code requests. Please try again in an hour." });
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(3500);
    expect(Number(res.headers.get("Retry-After"))).toBeLessThanOrEqual(3600);
    expect(mails.texts()).toHaveLength(CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR);
  });

  it("mails the customer a code from a fresh address after a stranger's requests from many others", async () => {
    await createVerifiedCustomer("c@example.com");
    for (let i = 0; i < CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR + 1; i++) {
      expect((await requestCode("c@example.com", `198.51.100.${i}`)).res.status).toBe(200);
    }
    const { res, cookie } = await requestCode("c@example.com", "203.0.113.50");
    expect(res.status).toBe(200);
    await vi.waitFor(() => expect(mails.texts()).toHaveLength(CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR + 2));
    expect((await verify(cookie, mailedCode()!)).status).toBe(200);
  });

  it(`mails an account at most ${LOGIN_MAILS_PER_ACCOUNT.max} login mails an hour, answering every request the same`, async () => {
    await createVerifiedCustomer("c@example.com");
    for (let i = 0; i < LOGIN_MAILS_PER_ACCOUNT.max + 3; i++) {
      const { res } = await requestCode("c@example.com", `198.51.100.${i}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "Login code sent", email: "c@example.com" });
    }
    expect(mails.texts()).toHaveLength(LOGIN_MAILS_PER_ACCOUNT.max);
    // The requests past the cap replaced no code: the one mailed last still signs in.
    const { cookie } = await requestCode("c@example.com", "203.0.113.50");
    expect((await verify(cookie, mailedCode()!)).status).toBe(200);
  });

  it(`allows ${CODE_REQUESTS_PER_IP_PER_HOUR} requests per IP per hour, then answers 429`, async () => {
    for (let i = 0; i < CODE_REQUESTS_PER_IP_PER_HOUR; i++) {
      expect((await requestCode(`u${i}@example.com`, "192.0.2.1")).res.status).toBe(200);
    }
    expect((await requestCode("another@example.com", "192.0.2.1")).res.status).toBe(429);
    expect((await requestCode("another@example.com", "192.0.2.2")).res.status).toBe(200);
  });

  it("lets no more than the limit through when requests arrive in parallel", async () => {
    await createVerifiedCustomer("c@example.com");
    const answers = await Promise.all(
      Array.from({ length: CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR * 2 }, () =>
        requestCode("c@example.com", "198.51.100.9"),
      ),
    );
    expect(answers.filter((a) => a.res.status === 200)).toHaveLength(CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR);
    expect(answers.filter((a) => a.res.status === 429)).toHaveLength(CODE_REQUESTS_PER_EMAIL_AND_IP_PER_HOUR);
  });

  it("answers an admin's address the same way, but mails no code: admins sign in with their password", async () => {
    await createAdmin("root@example.com");
    const { res } = await requestCode("root@example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Login code sent", email: "root@example.com" });
    expect(await db().select().from(loginOtpCodes)).toHaveLength(0);
    expect(mails.texts()).toHaveLength(1);
    expect(mails.texts()[0]).toContain("/admin-login");
    expect(mailedCode()).toBeUndefined();
  });

  it("refuses an invalid email", async () => {
    const { res } = await requestCode("nope");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Please enter a valid email address" });
  });
});

describe("POST /api/login/verify-otp", () => {
  it("logs in with the mailed code: answers the API key and records the attempt", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    const res = await verify(cookie, mailedCode()!);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ apiKey, user: { userId: user.id, email: "c@example.com", role: "user" } });
    const attempts = await db().select().from(loginAttempts).where(eq(loginAttempts.userId, user.id));
    expect(attempts).toMatchObject([{ success: true, ipAddress: "203.0.113.7", userAgent: "test-agent" }]);
  });

  it("refuses a wrong code and records the failed attempt", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    const res = await verify(cookie, wrongCode(mailedCode()!));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid code. Please try again." });
    const attempts = await db().select().from(loginAttempts).where(eq(loginAttempts.userId, user.id));
    expect(attempts).toMatchObject([{ success: false }]);
  });

  it("kills the code after 5 wrong tries, even if the right one follows", async () => {
    await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    const code = mailedCode()!;
    for (let i = 0; i < 4; i++) expect((await verify(cookie, wrongCode(code))).status).toBe(400);
    const fifth = await verify(cookie, wrongCode(code));
    expect(fifth.status).toBe(429);
    expect(await fifth.json()).toEqual({ error: "Too many wrong codes. Please request a new code." });
    const right = await verify(cookie, code);
    expect(right.status).toBe(429);
  });

  it("accepts the right code after 4 wrong tries", async () => {
    await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    const code = mailedCode()!;
    for (let i = 0; i < 4; i++) await verify(cookie, wrongCode(code));
    expect((await verify(cookie, code)).status).toBe(200);
  });

  it("refuses the right code once it has expired", async () => {
    await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    vi.useFakeTimers({ now: Date.now() + LOGIN_CODE_TTL_MS + 1000, toFake: ["Date"] });
    const res = await verify(cookie, mailedCode()!);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "This code has expired. Please request a new code." });
  });

  it("refuses a code whose time is up even within the login's ten minutes", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    const old = await issueLoginCode(db(), env.APP_SECRET, user.id, Date.now() - LOGIN_CODE_TTL_MS - 1000);
    const res = await verify(cookie, old);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid code. Please try again." });
  });

  it("refuses a code the second time", async () => {
    await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    const code = mailedCode()!;
    expect((await verify(cookie, code)).status).toBe(200);
    expect((await verify(cookie, code)).status).toBe(400);
  });

  it("refuses the old code once a new one was requested", async () => {
    await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    const first = mailedCode()!;
    await requestCode("c@example.com");
    const second = mailedCode()!;
    if (first !== second) expect((await verify(cookie, first)).status).toBe(400);
    expect((await verify(cookie, second)).status).toBe(200);
  });

  it("refuses a missing cookie", async () => {
    await createVerifiedCustomer("c@example.com");
    await requestCode("c@example.com");
    const res = await verify(undefined, mailedCode()!);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Your login has expired. Please request a new code." });
  });

  it("refuses a forged cookie naming another account", async () => {
    await createVerifiedCustomer("victim@example.com");
    const { cookie } = await requestCode("victim@example.com");
    const forged = cookie.replace(/^dc_login=[^.]+/, `dc_login=${encodeURIComponent("victim@example.com")}x`);
    const tampered = `dc_login=${encodeURIComponent("victim@example.com")}.${"A".repeat(43)}%3D`;
    for (const c of [forged, tampered]) {
      const res = await verify(c, mailedCode()!);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "Your login has expired. Please request a new code." });
    }
  });

  it("validates the code's format with SPEC.md's messages", async () => {
    expect(await (await verify(undefined, "1234")).json()).toEqual({ error: "Code must be exactly 5 digits" });
    expect(await (await verify(undefined, "12a45")).json()).toEqual({ error: "Code must contain only numbers" });
  });

  it("tells an inactive user so only once they entered the right code", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const { cookie } = await requestCode("c@example.com");
    await db().update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const code = mailedCode()!;
    const wrong = await verify(cookie, wrongCode(code));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "Invalid code. Please try again." });
    const right = await verify(cookie, code);
    expect(right.status).toBe(403);
    expect(await right.json()).toEqual({ error: "This account is inactive" });
  });

  it("never yields an admin's key, not even for a code stored for the admin", async () => {
    const admin = await createAdmin("root@example.com");
    const { cookie } = await requestCode("root@example.com");
    const code = await issueLoginCode(db(), env.APP_SECRET, admin.user.id);
    const res = await verify(cookie, code);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid code. Please try again." });
  });

  it("answers unknown, unverified, inactive and admin addresses exactly as a real account with wrong codes", async () => {
    await createVerifiedCustomer("real@example.com");
    await call("/api/register", { method: "POST", json: { email: "unverified@example.com" } });
    const inactive = await createVerifiedCustomer("inactive@example.com");
    await db().update(users).set({ isActive: false }).where(eq(users.id, inactive.user.id));
    await createAdmin("root@example.com");

    async function fiveWrongTries(email: string) {
      const { cookie } = await requestCode(email);
      const wrong = wrongCode(mailedCode() ?? "99999");
      const answers = [];
      for (let i = 0; i < 5; i++) {
        const res = await verify(cookie, wrong);
        answers.push({ status: res.status, body: await res.json(), retryAfter: res.headers.get("Retry-After") });
      }
      return answers;
    }
    const real = await fiveWrongTries("real@example.com");
    expect(real.map((a) => a.status)).toEqual([400, 400, 400, 400, 429]);
    for (const email of ["nobody@example.com", "unverified@example.com", "inactive@example.com", "root@example.com"]) {
      expect(await fiveWrongTries(email), email).toEqual(real);
    }
  });

  it(`locks codes after ${WRONG_CODE_LOCK.max} wrong ones in a day, across codes; the mailed link signs in and unlocks`, async () => {
    await createVerifiedCustomer("c@example.com");
    for (let round = 0; round < WRONG_CODE_LOCK.max / 5; round++) {
      const { cookie } = await requestCode("c@example.com");
      const code = mailedCode()!;
      for (let i = 0; i < 5; i++) await verify(cookie, wrongCode(code));
    }
    const { cookie } = await requestCode("c@example.com");
    expect(mailedCode()).toBeUndefined();
    const link = mails
      .texts()
      .at(-1)!
      .match(/https?:\/\/\S+\/login\?token=\S+/)?.[0];
    expect(link).toBeDefined();

    const locked = await verify(cookie, "12345");
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { error: string }).error).toContain("sign-in link");
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(23 * 3600);

    const viaLink = await call(`/api/verify-email?token=${new URL(link!).searchParams.get("token")}`);
    expect(viaLink.status).toBe(200);
    expect(await viaLink.json()).toMatchObject({ email: "c@example.com", apiKey: expect.stringMatching(/^dc_/) });
    const again = await requestCode("c@example.com");
    expect((await verify(again.cookie, mailedCode()!)).status).toBe(200);
  });

  it(`allows ${THROTTLES["code-check"].perIp.max} code checks per IP in ${THROTTLES["code-check"].perIp.windowMs / 60_000} minutes`, async () => {
    const max = THROTTLES["code-check"].perIp.max;
    let cookie = "";
    // Five tries for each of several addresses: no address reaches its own lock, only the IP its throttle.
    for (let i = 0; i < max; i++) {
      if (i % 5 === 0) cookie = (await requestCode(`guess${i}@example.com`, `198.51.100.${i}`)).cookie;
      const res = await verify(cookie, "12345");
      expect(await res.json()).toEqual({
        error: i % 5 === 4 ? "Too many wrong codes. Please request a new code." : "Invalid code. Please try again.",
      });
    }
    const res = await verify(cookie, "12345");
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^Too many login attempts\. Please try again in \d+ minutes\.$/,
    );
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});
