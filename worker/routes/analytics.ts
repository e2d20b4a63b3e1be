/** @module `GET /api/analytics`: the customer's hits per URL, a page at a time. */
import { Hono } from "hono";
import { analyticsQuery } from "../contract/schemas";
import { requireUser } from "../auth/middleware";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { analyticsRows } from "../models/usage";

export const analyticsRoutes = new Hono<AppEnv>().get("/", requireUser, validate("query", analyticsQuery), async (c) =>
  pageResponse(c, await analyticsRows(createDb(c.env.DB), c.var.user.id, c.req.valid("query"))),
);
