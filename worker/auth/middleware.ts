/**
 * @module Who is asking, and what they may do: the one place permissions are checked.
 * `requireUser` admits an active account by `X-API-Key` and puts it on the context as `c.var.user`, with the key's
 * session as `c.var.session`; `requireAdmin` also requires the admin role; `requireAccountHolder` refuses an admin
 * who is acting as the customer (impersonating) for what only the holder of the account may do.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { forbidden, unauthorized } from "../http/errors";
import { findKeySession, touchApiKey } from "../models/api-keys";

export const API_KEY_HEADER = "X-API-Key";

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header(API_KEY_HEADER);
  if (!key) throw unauthorized("API key required");
  const db = c.var.db;
  const found = await findKeySession(db, key);
  if (found === "expired") throw unauthorized("Your session has expired. Please sign in again.");
  if (!found) throw unauthorized("Invalid API key");
  if (!found.user.isActive) throw forbidden("This account is inactive");
  c.set("user", found.user);
  c.set("session", { apiKey: key, keyId: found.keyId, kind: found.kind, impersonator: found.impersonator });
  c.executionCtx.waitUntil(touchApiKey(db, found.keyId, found.lastUsedAt).catch(() => undefined));
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  await requireUser(c, async () => {
    if (c.var.user.role !== "admin") throw forbidden("Admin access required");
    await next();
  });
});

/** After `requireUser`: only the account's own holder, not an admin acting as them. */
export const requireAccountHolder = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.session.impersonator) throw forbidden("Only the account holder can do this, not an admin acting as them");
  await next();
});
