/**
 * @module Who is asking: `requireUser` admits an active user by `X-API-Key`, `requireAdmin` also requires the
 * admin role. The user is put on the context as `c.var.user`.
 */
import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { forbidden, unauthorized } from "../http/errors";
import { findUserByApiKey, touchApiKey } from "../models/api-keys";

export const API_KEY_HEADER = "X-API-Key";

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header(API_KEY_HEADER);
  if (!key) throw unauthorized("API key required");
  const db = createDb(c.env.DB);
  const found = await findUserByApiKey(db, key);
  if (!found) throw unauthorized("Invalid API key");
  if (!found.user.isActive) throw forbidden("This account is inactive");
  c.set("user", found.user);
  c.executionCtx.waitUntil(touchApiKey(db, found.keyId, found.lastUsedAt).catch(() => undefined));
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  await requireUser(c, async () => {
    if (c.var.user.role !== "admin") throw forbidden("Admin access required");
    await next();
  });
});
