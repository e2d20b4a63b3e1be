/**
 * @module `GET /api/analytics`: the customer's hits per URL, a page at a time (the reducer settles them first:
 * analytics/settled-counts.ts); `GET /api/analytics/timeseries`:
 * their requests, deliveries and crawler requests over time, of the account or of one URL (docs/analytics.md).
 */
import { Hono } from "hono";
import { analyticsQuery } from "#contract/schemas";
import { timeseriesQuery, type TimeseriesPoint } from "#contract/timeseries";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../env";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { customerSeries } from "../models/timeseries";
import { analyticsRows } from "../models/usage";
import { ownCountsSettled, seriesHeld } from "../analytics/settled-counts";

export const analyticsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, ownCountsSettled, validate("query", analyticsQuery), async (c) =>
    pageResponse(c, await analyticsRows(c.var.db, c.var.user.id, c.req.valid("query")), c.req.valid("query")),
  )
  .get("/timeseries", requireUser, validate("query", timeseriesQuery), async (c) => {
    const query = c.req.valid("query");
    const held = await seriesHeld(c, c.var.user.id, query);
    return c.json<TimeseriesPoint[]>(await customerSeries(c.var.db, c.var.user, query, held));
  });
