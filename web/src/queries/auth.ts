import { useQuery } from "@tanstack/react-query";
import type { AuthInfo } from "#contract/responses";
import { getJson } from "@/lib/api";

export const authKeys = { all: ["auth"] as const };

/** Who the stored api key belongs to (GET /api/auth). The guard handles a failure, so no toast. */
export function useAuthCheck({ enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: authKeys.all,
    queryFn: () => getJson<AuthInfo>("/api/auth"),
    enabled,
    meta: { silent: true },
  });
}
