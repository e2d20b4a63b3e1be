/**
 * @module `GET /api/admin/overview`: the admin dashboard's System Overview, whether page views are counted, and
 * the last mails that could not be sent.
 */
import { count } from "drizzle-orm";
import { Hono } from "hono";
import type { AdminOverview } from "#contract/responses";
import { QUARANTINE_RETRIES } from "../../analytics/quarantine";
import { users } from "../../db/schema";
import type { AppEnv } from "../../env";
import { analyticsHealth } from "../../models/analytics-health";
import { latestMailFailures } from "../../models/mail-failures";
import { revenue } from "../../models/revenue";
import { paypalConfig } from "../../paypal/config";

export const adminOverviewRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const db = c.var.db;
  const [[total], money, analytics, mailFailures] = await Promise.all([
    db.select({ n: count() }).from(users),
    revenue(db, paypalConfig(c.env)),
    analyticsHealth(db, c.env.DB, QUARANTINE_RETRIES),
    latestMailFailures(db),
  ]);
  return c.json<AdminOverview>({ totalUsers: total?.n ?? 0, ...money, analytics, mailFailures });
});
