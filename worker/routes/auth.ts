/** @module `GET /api/auth` (who the key belongs to) and `POST /api/admin/login` (admins, by password only). */
import { Hono } from "hono";
import type { AdminLoginResponse, AuthInfo } from "#contract/responses";
import { adminLoginBody } from "#contract/schemas";
import { requireUser } from "../auth/middleware";
import { DECOY_PASSWORD_HASH, verifyPassword } from "../auth/password";
import { forgiveSuccess, throttle } from "../auth/throttle";
import type { User } from "../db/schema";
import type { AppEnv } from "../env";
import { clientInfo } from "../http/client-info";
import { forbidden, unauthorized } from "../http/errors";
import { validate } from "../http/validate";
import { secretKeys } from "../lib/crypto";
import { issueAdminKey } from "../models/api-keys";
import { recordLoginAttempt } from "../models/login-attempts";
import { findUserByEmail } from "../models/users";

const authInfo = (user: User): AuthInfo => ({ userId: user.id, email: user.email, role: user.role });

export const authRoutes = new Hono<AppEnv>()
  .get("/auth", requireUser, (c) => c.json<AuthInfo>(authInfo(c.var.user)))
  .post("/admin/login", validate("json", adminLoginBody), async (c) => {
    const { password } = c.req.valid("json");
    const email = c.req.valid("json").email.toLowerCase();
    // Before the PBKDF2 run: a flood of guesses costs a count, not a hash each. A success is taken back.
    const taken = await throttle(c, "admin-login", email);
    const db = c.var.db;
    const user = await findUserByEmail(db, email);
    const admin = user?.role === "admin" && user.passwordHash ? user : undefined;
    const valid = await verifyPassword(password, admin?.passwordHash ?? DECOY_PASSWORD_HASH);
    await recordLoginAttempt(db, { userId: admin?.id ?? null, success: Boolean(admin && valid), ...clientInfo(c) });
    if (!admin || !valid) throw unauthorized("Invalid email or password");
    await forgiveSuccess(db, taken);
    if (!admin.isActive) throw forbidden("This account is inactive");
    const apiKey = await issueAdminKey(db, secretKeys(c.env), admin.id);
    return c.json<AdminLoginResponse>({ apiKey, user: authInfo(admin) });
  });
