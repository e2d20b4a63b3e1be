/** @module `GET /api/auth` (who the key belongs to) and `POST /api/admin/login`. */
import { Hono } from "hono";
import type { AdminLoginResponse, AuthInfo } from "../contract/responses";
import { adminLoginBody } from "../contract/schemas";
import { requireUser } from "../auth/middleware";
import { verifyPassword } from "../auth/password";
import { createDb } from "../db/client";
import type { User } from "../db/schema";
import type { AppEnv } from "../env";
import { forbidden, unauthorized } from "../http/errors";
import { validate } from "../http/validate";
import { ensureApiKey } from "../models/api-keys";
import { findUserByEmail } from "../models/users";

const authInfo = (user: User): AuthInfo => ({ userId: user.id, email: user.email, role: user.role });

export const authRoutes = new Hono<AppEnv>()
  .get("/auth", requireUser, (c) => c.json<AuthInfo>(authInfo(c.var.user)))
  .post("/admin/login", validate("json", adminLoginBody), async (c) => {
    const { email, password } = c.req.valid("json");
    const db = createDb(c.env.DB);
    const user = await findUserByEmail(db, email);
    const valid = user?.role === "admin" && user.passwordHash && (await verifyPassword(password, user.passwordHash));
    if (!user || !valid) throw unauthorized("Invalid email or password");
    if (!user.isActive) throw forbidden("This account is inactive");
    const apiKey = await ensureApiKey(db, c.env.APP_SECRET, user.id);
    return c.json<AdminLoginResponse>({ apiKey, user: authInfo(user) });
  });
