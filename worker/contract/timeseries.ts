/**
 * @module `GET /api/analytics/timeseries` (docs/analytics.md): the customer's requests, deliveries and crawler
 * requests per day, week (from Monday) or month, from the daily rollups, UTC.
 */
import { z } from "zod";

export const INTERVALS = ["day", "week", "month"] as const;
export type Interval = (typeof INTERVALS)[number];

/** How far a series reaches: three years of days (1,096 points at most). */
export const TIMESERIES_MAX_DAYS = 1_096;
/** Without `from`: the last 30 days, as the Overview shows them. */
export const TIMESERIES_DEFAULT_DAYS = 30;

export const PER_URL_NOT_AVAILABLE =
  "Series per URL are not available yet: leave out url for the whole account, or see /api/analytics for each URL's totals";

const day = (field: string) => z.iso.date({ error: `${field} must be a date such as 2026-11-25` }).optional();

export const timeseriesQuery = z
  .object({
    interval: z.enum(INTERVALS, { error: 'Interval must be "day", "week" or "month"' }).default("day"),
    from: day("From"),
    to: day("To"),
    url: z.string().optional(),
  })
  .superRefine((query, ctx) => {
    if (query.url !== undefined) ctx.addIssue({ code: "custom", message: PER_URL_NOT_AVAILABLE, path: ["url"] });
    if (query.from && query.to && query.from > query.to) {
      ctx.addIssue({ code: "custom", message: "From must not be after To", path: ["from"] });
    }
  });

export interface TimeseriesPoint {
  /** The bucket's first day, as an ISO instant (UTC midnight). */
  start: string;
  requests: number;
  deliveries: number;
  crawlerRequests: number;
}
