import { useQuery } from "@tanstack/react-query";
import type { AnalyticsRow } from "../../../worker/contract/responses";
import { getJson } from "@/lib/api";

export const analyticsKeys = { all: ["analytics"] as const };

/** Hits per URL; only asked for when a key is stored. */
export function useAnalytics({ enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: analyticsKeys.all,
    queryFn: () => getJson<AnalyticsRow[]>("/api/analytics"),
    enabled,
  });
}
