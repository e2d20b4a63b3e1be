/**
 * @module `GET /api/analytics`: the customer's hits per URL, a page at a time; `GET /api/analytics/timeseries`:
 * their requests, deliveries and crawler requests over time (docs/analytics.md).
 */
import { Hono } from "hono";
import { utcDay } from "../analytics/record";
import { formatNumber } from "../contract/input-caps";
import { analyticsQuery } from "../contract/schemas";
import {
  TIMESERIES_DEFAULT_DAYS,
  TIMESERIES_MAX_DAYS,
  timeseriesQuery,
  type TimeseriesPoint,
} from "../contract/timeseries";
import { requireUser } from "../auth/middleware";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { daysBetween, usageSeries } from "../models/timeseries";
import { analyticsRows } from "../models/usage";

export const analyticsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, validate("query", analyticsQuery), async (c) =>
    pageResponse(c, await analyticsRows(createDb(c.env.DB), c.var.user.id, c.req.valid("query"))),
  )
  .get("/timeseries", requireUser, validate("query", timeseriesQuery), async (c) => {
    const { interval, from: asked, to = utcDay(Date.now()) } = c.req.valid("query");
    const from = asked ?? utcDay(Date.parse(to) - (TIMESERIES_DEFAULT_DAYS - 1) * 86_400_000);
    if (daysBetween(from, to) > TIMESERIES_MAX_DAYS) {
      throw new ApiError(400, `A series can reach at most ${formatNumber(TIMESERIES_MAX_DAYS)} days`);
    }
    return c.json<TimeseriesPoint[]>(await usageSeries(createDb(c.env.DB), c.var.user.id, { interval, from, to }));
  });
