import { useQuery } from "@tanstack/react-query";
import type { Stats } from "#contract/responses";
import { getJson } from "@/lib/api";

export const statsKeys = { all: ["user", "stats"] as const };

/** Request counts and limit of the stored key's owner; only asked for when a key is stored. */
export function useStats({ enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: statsKeys.all,
    queryFn: () => getJson<Stats>("/api/user/stats"),
    enabled,
  });
}
