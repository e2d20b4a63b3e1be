import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AnalyticsRow } from "#contract/responses";
import type { Interval, TimeseriesPoint } from "#contract/timeseries";
import { getJson, getPage, withQuery } from "@/lib/api";
import { PAGE_SIZE } from "@/hooks/use-page";

/** The customer's own series. */
export const CUSTOMER_SERIES = "/api/analytics/timeseries";

export const analyticsKeys = {
  all: ["analytics"] as const,
  page: (offset: number) => [...analyticsKeys.all, offset] as const,
  series: (path: string, interval: Interval, url: string) =>
    [...analyticsKeys.all, "series", path, interval, url] as const,
};

/** A page of hits per URL, most recently accessed first; only asked for when a key is stored. */
export function useAnalytics({ enabled, offset = 0 }: { enabled: boolean; offset?: number }) {
  return useQuery({
    queryKey: analyticsKeys.page(offset),
    queryFn: () => getPage<AnalyticsRow>("/api/analytics", { limit: PAGE_SIZE, offset: offset || undefined }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The series' range fits its interval: 30 days by day (the server's default), 12 weeks by week, 12 months by month. */
export const SERIES_RANGES: Record<Interval, { count: number }> = {
  day: { count: 30 },
  week: { count: 12 },
  month: { count: 12 },
};

/** The first UTC day of the range that ends today (none for days: the server's default range). */
export function seriesFrom(interval: Interval, now = new Date()): string | undefined {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (interval === "week") return day(today - (SERIES_RANGES.week.count * 7 - 1) * 86_400_000);
  if (interval === "month") {
    return day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (SERIES_RANGES.month.count - 1), 1));
  }
  return undefined;
}

/**
 * Requests, deliveries and crawler requests over time (docs/analytics.md), the Worker's default range (the last 30
 * days): the customer's own (`/api/analytics/timeseries`) or, for an admin, one customer's; of one page's URL when
 * `url` is given.
 */
export function useUsageSeries(path: string, interval: Interval, url = "") {
  return useQuery({
    queryKey: analyticsKeys.series(path, interval, url),
    queryFn: () => getJson<TimeseriesPoint[]>(withQuery(path, { interval, from: seriesFrom(interval), url })),
    placeholderData: keepPreviousData,
    // Page views keep arriving while the dashboard is open: asked again whenever a chart opens, unless its answer is
    // only seconds old (a chart's first render may mount it twice).
    staleTime: 5_000,
  });
}
