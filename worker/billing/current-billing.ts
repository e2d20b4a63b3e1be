/**
 * @module Routes that show or enforce the current billing period put this after `requireUser`: a period that
 * has ended (or a paid plan that has lapsed) is settled before the handler reads `c.var.user`, so nobody waits
 * for the daily cron. Costs nothing (no query) while the period runs.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { settleIfDue } from "./periods";

export const currentBilling = createMiddleware<AppEnv>(async (c, next) => {
  c.set("user", await settleIfDue(c.env, c.var.user, new Date()));
  await next();
});
