/**
 * @module Customer login with emailed codes. `request-otp` mails a code and sets a signed, HttpOnly cookie
 * naming the pending login; `verify-otp` carries only the code and reads the email from that cookie.
 */
import { Hono, type Context } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import type { LoginRequestResponse, LoginVerifyResponse } from "../contract/responses";
import { loginRequestBody, loginVerifyBody } from "../contract/schemas";
import { createDb } from "../db/client";
import { sendVerificationMail } from "../email/account-mails";
import { loginCodeMail } from "../email/messages";
import { sendMail } from "../email/send-mail";
import type { AppEnv } from "../env";
import { ApiError, badRequest, forbidden, tooManyRequests } from "../http/errors";
import { clientInfo } from "../http/client-info";
import { publicOrigin } from "../http/origin";
import { validate } from "../http/validate";
import { ensureApiKey } from "../models/api-keys";
import { recordLoginAttempt } from "../models/login-attempts";
import { checkLoginCode, issueLoginCode, LOGIN_CODE_TTL_MS } from "../models/login-codes";
import { takeRateLimits } from "../models/rate-limits";
import { findUserByEmail } from "../models/users";

const LOGIN_COOKIE = "dc_login";
const HOUR_MS = 60 * 60 * 1000;
export const CODE_REQUESTS_PER_EMAIL_PER_HOUR = 5;
export const CODE_REQUESTS_PER_IP_PER_HOUR = 20;

const CODE_EXPIRED = "This code has expired. Please request a new code.";

function setLoginCookie(c: Context<AppEnv>, email: string) {
  return setSignedCookie(c, LOGIN_COOKIE, email, c.env.APP_SECRET, {
    path: "/api/login",
    httpOnly: true,
    sameSite: "Strict",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: LOGIN_CODE_TTL_MS / 1000,
  });
}

export const loginRoutes = new Hono<AppEnv>()
  .post("/request-otp", validate("json", loginRequestBody), async (c) => {
    const email = c.req.valid("json").email.toLowerCase();
    const db = createDb(c.env.DB);
    const { ipAddress } = clientInfo(c);
    const allowed = await takeRateLimits(db, [
      { bucket: `email:${email}`, max: CODE_REQUESTS_PER_EMAIL_PER_HOUR, windowMs: HOUR_MS },
      ...(ipAddress ? [{ bucket: `ip:${ipAddress}`, max: CODE_REQUESTS_PER_IP_PER_HOUR, windowMs: HOUR_MS }] : []),
    ]);
    if (!allowed) throw tooManyRequests("Too many login code requests. Please try again in an hour.");

    // The answer is the same for every address: it tells nobody whether an account exists.
    const user = await findUserByEmail(db, email);
    if (user?.isActive && user.emailVerified) {
      const code = await issueLoginCode(db, c.env.APP_SECRET, user.id);
      await sendMail(c.env, db, loginCodeMail(user.email, code));
    } else if (user?.isActive) {
      await sendVerificationMail(c.env, db, publicOrigin(c), user);
    }
    await setLoginCookie(c, email);
    return c.json<LoginRequestResponse>({ message: "Login code sent", email });
  })
  .post("/verify-otp", validate("json", loginVerifyBody), async (c) => {
    const pending = await getSignedCookie(c, c.env.APP_SECRET, LOGIN_COOKIE);
    if (!pending) throw badRequest("Your login has expired. Please request a new code.");
    const db = createDb(c.env.DB);
    const user = await findUserByEmail(db, pending);
    const attempt = { userId: user?.id ?? null, ...clientInfo(c) };
    if (!user || !user.emailVerified) {
      await recordLoginAttempt(db, { ...attempt, success: false });
      throw badRequest(CODE_EXPIRED);
    }
    if (!user.isActive) {
      await recordLoginAttempt(db, { ...attempt, success: false });
      throw forbidden("This account is inactive");
    }
    const result = await checkLoginCode(db, c.env.APP_SECRET, user.id, c.req.valid("json").code);
    await recordLoginAttempt(db, { ...attempt, success: result === "ok" });
    if (result === "invalid") throw badRequest("Invalid code. Please try again.");
    if (result === "expired") throw badRequest(CODE_EXPIRED);
    if (result === "exhausted") throw new ApiError(429, "Too many wrong codes. Please request a new code.");
    deleteCookie(c, LOGIN_COOKIE, { path: "/api/login" });
    const apiKey = await ensureApiKey(db, c.env.APP_SECRET, user.id);
    return c.json<LoginVerifyResponse>({ apiKey, user: { userId: user.id, email: user.email, role: user.role } });
  });
