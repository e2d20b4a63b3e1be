/**
 * @module `GET /api/analytics`: the customer's hits per URL, a page at a time, with what the reducer holds of the
 * page's URLs added, or settled first when a held URL is new (analytics/settled-counts.ts);
 * `GET /api/analytics/timeseries`: their requests, deliveries and crawler requests over time, of the account or of
 * one URL (docs/analytics.md).
 */
import { Hono } from "hono";
import { analyticsQuery } from "#contract/schemas";
import { timeseriesQuery, type TimeseriesPoint } from "#contract/timeseries";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../env";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { customerSeries } from "../models/timeseries";
import { analyticsRows, recentRowsFor, withUnsettledRows } from "../models/usage";
import { heldFor, seriesHeld, settleShown } from "../analytics/settled-counts";

export const analyticsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, validate("query", analyticsQuery), async (c) => {
    const query = c.req.valid("query");
    const userId = c.var.user.id;
    const page = await analyticsRows(c.var.db, userId, query);
    const held = await heldFor(
      c,
      userId,
      page.rows.map((row) => row.url),
      recentRowsFor(query),
    );
    const shown = held ? await withUnsettledRows(c.var.db, userId, page, held, query) : "no peek";
    if (typeof shown !== "string") return pageResponse(c, shown, query);
    await settleShown(c, [userId]);
    return pageResponse(c, await analyticsRows(c.var.db, userId, query), query);
  })
  .get("/timeseries", requireUser, validate("query", timeseriesQuery), async (c) => {
    const query = c.req.valid("query");
    const held = await seriesHeld(c, c.var.user.id, query);
    return c.json<TimeseriesPoint[]>(await customerSeries(c.var.db, c.var.user, query, held));
  });
