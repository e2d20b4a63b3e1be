import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AnalyticsRow } from "../../../worker/contract/responses";
import type { Interval, TimeseriesPoint } from "../../../worker/contract/timeseries";
import { getJson, getPage, withQuery } from "@/lib/api";

export const analyticsKeys = {
  all: ["analytics"] as const,
  page: (offset: number) => [...analyticsKeys.all, offset] as const,
  series: (interval: Interval) => [...analyticsKeys.all, "series", interval] as const,
};

/** A page of hits per URL, most recently accessed first; only asked for when a key is stored. */
export function useAnalytics({ enabled, offset = 0 }: { enabled: boolean; offset?: number }) {
  return useQuery({
    queryKey: analyticsKeys.page(offset),
    queryFn: () => getPage<AnalyticsRow>("/api/analytics", { offset: offset || undefined }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Requests, deliveries and crawler requests over time (docs/analytics.md); the Worker's default range. */
export function useUsageSeries(interval: Interval) {
  return useQuery({
    queryKey: analyticsKeys.series(interval),
    queryFn: () => getJson<TimeseriesPoint[]>(withQuery("/api/analytics/timeseries", { interval })),
    placeholderData: keepPreviousData,
  });
}
