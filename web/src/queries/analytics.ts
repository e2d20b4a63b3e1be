import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AnalyticsRow } from "../../../worker/contract/responses";
import { getPage } from "@/lib/api";

export const analyticsKeys = {
  all: ["analytics"] as const,
  page: (offset: number) => [...analyticsKeys.all, offset] as const,
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
