import { useQuery } from "@tanstack/react-query";
import type { AdminOverview } from "#contract/responses";
import { getJson } from "@/lib/api";

export const adminOverviewKeys = { all: ["admin", "overview"] as const };

/** GET /api/admin/overview: the user count and the revenue of the last 7 days and of this calendar year. */
export function useAdminOverview() {
  return useQuery({
    queryKey: adminOverviewKeys.all,
    queryFn: () => getJson<AdminOverview>("/api/admin/overview"),
  });
}
