/**
 * @module Customer login with emailed codes. `request-otp` sets a signed, HttpOnly cookie naming the pending
 * login and mails what the address should get; `verify-otp` carries only the code and reads the email from that
 * cookie. Both answer the same, in the same time, for every address: whether it has an account, is verified,
 * inactive or an admin's is told only to its mailbox. Admins never sign in with a code. While no mail can go out,
 * `request-otp` answers every address alike that the email could not be sent (`assertMailCanBeSent`).
 */
import { Hono, type Context } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import type { LoginRequestResponse, LoginVerifyResponse } from "#contract/responses";
import { loginRequestBody, loginVerifyBody } from "#contract/schemas";
import {
  clearWrongCodes,
  mayMailLogin,
  recordWrongCode,
  refuse,
  throttle,
  wrongCodeLock,
  wrongCodesSince,
} from "../auth/throttle";
import type { Db } from "../db/client";
import type { User } from "../db/schema";
import { sendSignInLinkMail, sendVerificationMail } from "../email/account-mails";
import { adminLoginNoticeMail, loginCodeMail } from "../email/messages";
import { assertMailCanBeSent, sendMail } from "../email/send-mail";
import type { AppEnv } from "../env";
import { inBackground } from "../http/background";
import { clientInfo } from "../http/client-info";
import { badRequest, forbidden, tooManyRequests } from "../http/errors";
import { publicOrigin } from "../http/origin";
import { validate } from "../http/validate";
import { secretKeys } from "../lib/crypto";
import { ensureCustomerKey } from "../models/api-keys";
import { recordLoginAttempt } from "../models/login-attempts";
import {
  checkLoginCode,
  issueLoginCode,
  LOGIN_CODE_MAX_TRIES,
  LOGIN_CODE_TTL_MS,
  type CodeCheck,
} from "../models/login-codes";
import { findUserByEmail } from "../models/users";

const LOGIN_COOKIE = "dc_login";

export const LOGIN_EXPIRED = "Your login has expired. Please request a new code.";
export const CODE_EXPIRED = "This code has expired. Please request a new code.";
export const WRONG_CODE = "Invalid code. Please try again.";
export const CODE_EXHAUSTED = "Too many wrong codes. Please request a new code.";
const CODES_LOCKED =
  "Too many wrong codes for this account: request a new code and we will email you a sign-in link instead.";

interface PendingLogin {
  email: string;
  issuedAt: number;
}

function setLoginCookie(c: Context<AppEnv>, login: PendingLogin) {
  return setSignedCookie(c, LOGIN_COOKIE, `${login.issuedAt}:${login.email}`, c.env.APP_SECRET, {
    path: "/api/login",
    httpOnly: true,
    sameSite: "Strict",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: LOGIN_CODE_TTL_MS / 1000,
  });
}

async function readLoginCookie(c: Context<AppEnv>): Promise<PendingLogin | null> {
  const value = await getSignedCookie(c, c.env.APP_SECRET, LOGIN_COOKIE);
  const match = value ? /^(\d+):(.+)$/.exec(value) : null;
  return match ? { issuedAt: Number(match[1]), email: match[2]! } : null;
}

/**
 * What a login request mails: a code, a sign-in link once codes are locked, the verification link, or nothing (also
 * past the account's mail cap, when the code mailed last stays the one to use).
 */
async function mailLoginHelp(c: Context<AppEnv>, db: Db, user: User | undefined): Promise<void> {
  if (!user?.isActive) return;
  if (!(await mayMailLogin(db, user.email))) {
    console.warn(`Login mail for account ${user.id} not sent: past its cap of login mails an hour`);
    return;
  }
  const origin = publicOrigin(c);
  if (user.role === "admin") return sendMail(c.env, db, adminLoginNoticeMail(user.email, origin));
  if (!user.emailVerified) return sendVerificationMail(c.env, db, origin, user);
  if (!(await wrongCodeLock(db, user.email)).allowed) return sendSignInLinkMail(c.env, db, origin, user);
  const code = await issueLoginCode(db, c.env.APP_SECRET, user.id);
  await sendMail(c.env, db, loginCodeMail(user.email, code));
}

/**
 * A code check where there is no code (an unknown, unverified, inactive or admin address, or a code already
 * used): it answers exactly as a wrong code for a real account would, the fifth try of a login included.
 */
async function checkWithoutAccount(db: Db, login: PendingLogin): Promise<CodeCheck> {
  const earlierWrongTries = await wrongCodesSince(db, login.email, login.issuedAt);
  return earlierWrongTries + 1 >= LOGIN_CODE_MAX_TRIES ? "exhausted" : "invalid";
}

export const loginRoutes = new Hono<AppEnv>()
  .post("/request-otp", validate("json", loginRequestBody), async (c) => {
    const email = c.req.valid("json").email.toLowerCase();
    await throttle(c, "code-request", email);
    const db = c.var.db;
    await assertMailCanBeSent(c.env, db);
    inBackground(c, "Login mail", async () => mailLoginHelp(c, db, await findUserByEmail(db, email)));
    await setLoginCookie(c, { email, issuedAt: Date.now() });
    return c.json<LoginRequestResponse>({ message: "Login code sent", email });
  })
  .post("/verify-otp", validate("json", loginVerifyBody), async (c) => {
    const login = await readLoginCookie(c);
    if (!login) throw badRequest(LOGIN_EXPIRED);
    const now = Date.now();
    if (now - login.issuedAt > LOGIN_CODE_TTL_MS) throw badRequest(CODE_EXPIRED);
    await throttle(c, "code-check");
    const db = c.var.db;
    const lock = await wrongCodeLock(db, login.email, now);
    if (!lock.allowed) refuse(CODES_LOCKED, lock);

    const user = await findUserByEmail(db, login.email);
    const holder = user?.role === "user" && user.emailVerified ? user : undefined;
    let result = holder
      ? await checkLoginCode(db, c.env.APP_SECRET, holder.id, c.req.valid("json").code, now)
      : "expired";
    // No code to check against (none was mailed, it was used or replaced, or it is still being mailed): the
    // answer is the one every address without a code gets.
    if (result === "expired") result = await checkWithoutAccount(db, login);
    await recordLoginAttempt(db, { userId: holder?.id ?? null, success: result === "ok", ...clientInfo(c) });
    if (result !== "ok") await recordWrongCode(db, login.email, now);
    if (result === "invalid") throw badRequest(WRONG_CODE);
    if (result === "exhausted") throw tooManyRequests(CODE_EXHAUSTED, 0);

    const customer = holder!;
    if (!customer.isActive) throw forbidden("This account is inactive");
    deleteCookie(c, LOGIN_COOKIE, { path: "/api/login" });
    await clearWrongCodes(db, customer.email);
    const apiKey = await ensureCustomerKey(db, secretKeys(c.env), customer.id);
    return c.json<LoginVerifyResponse>({
      apiKey,
      user: { userId: customer.id, email: customer.email, role: customer.role },
    });
  });
