/** @module `GET /api/admin/overview`: the admin dashboard's System Overview. */
import { count } from "drizzle-orm";
import { Hono } from "hono";
import type { AdminOverview } from "#contract/responses";
import { users } from "../../db/schema";
import type { AppEnv } from "../../env";
import { revenue } from "../../models/revenue";
import { paypalConfig } from "../../paypal/config";

export const adminOverviewRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const db = c.var.db;
  const [[total], money] = await Promise.all([db.select({ n: count() }).from(users), revenue(db, paypalConfig(c.env))]);
  return c.json<AdminOverview>({ totalUsers: total?.n ?? 0, ...money });
});
