import { useQuery } from "@tanstack/react-query";
import type { CustomerDashboard } from "#contract/responses";
import { getJson } from "@/lib/api";

export const userDashboardKeys = { all: ["user", "dashboard"] as const };

/** The signed-in customer's account, plan, billing period and usage. The screen reports a failure itself. */
export function useUserDashboard() {
  return useQuery({
    queryKey: userDashboardKeys.all,
    queryFn: () => getJson<CustomerDashboard>("/api/user/dashboard"),
    meta: { silent: true },
  });
}
