/**
 * @module `GET /api/analytics/timeseries` (docs/analytics.md): the customer's requests, deliveries and crawler
 * requests per day, week (from Monday) or month, from the daily rollups, UTC; of the whole account, or of one URL.
 */
import { z } from "zod";
import { tooLong, URL_MAX_LENGTH } from "./input-caps";

export const INTERVALS = ["day", "week", "month"] as const;
export type Interval = (typeof INTERVALS)[number];

/** How far a series reaches: three years of days (1,096 points at most). */
export const TIMESERIES_MAX_DAYS = 1_096;
/** Without `from`: the last 30 days, as the Overview shows them. */
export const TIMESERIES_DEFAULT_DAYS = 30;

/**
 * A day as people write it: an ISO 8601 date (`2026-11-24`) or date-time (`2026-11-24T08:50:00Z`, with its offset),
 * taken as the UTC day it falls on.
 */
const day = (field: string) =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], {
      error: `${field} must be a date such as 2026-11-25 or a date-time such as 2026-11-25T08:50:00Z`,
    })
    .transform((value) => (value.length === 10 ? value : new Date(value).toISOString().slice(0, 10)))
    .optional();

export const timeseriesQuery = z
  .object({
    interval: z.enum(INTERVALS, { error: 'Interval must be "day", "week" or "month"' }).default("day"),
    from: day("From"),
    to: day("To"),
    /** One page's series: its URL as visited (with http(s)://) or as the Analytics tab lists it (normalised). */
    url: z
      .string()
      .trim()
      .min(1, "URL must not be empty: leave it out for the whole account")
      .max(URL_MAX_LENGTH, tooLong("URL", URL_MAX_LENGTH))
      .optional()
      .describe("One page's series: its URL as visited, or as /api/analytics lists it"),
  })
  .superRefine((query, ctx) => {
    if (query.from && query.to && query.from > query.to) {
      ctx.addIssue({ code: "custom", message: "From must not be after To", path: ["from"] });
    }
  });

export type TimeseriesQuery = z.infer<typeof timeseriesQuery>;

export interface TimeseriesPoint {
  /** The bucket's first day, as an ISO instant (UTC midnight). */
  start: string;
  requests: number;
  deliveries: number;
  crawlerRequests: number;
}
