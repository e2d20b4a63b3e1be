/** @module Every customer's mappings for the admin console ("Event-Verwaltung"), and deleting one. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminMapping, MessageResponse } from "../../../worker/contract/responses";
import { apiJson, getJson } from "@/lib/api";
import { toast } from "@/hooks/use-toast";
import { mappingKeys } from "./mappings";

export const adminMappingKeys = { all: ["admin", "mappings"] as const };

/**
 * The admin users' detail carries their mappings and the list their counts; the prefix is spelled out here so
 * this file does not import `admin-users.ts`, which imports this one.
 */
const adminUsersKeyPrefix = ["admin", "users"] as const;

/** GET /api/admin/mappings: every customer's mappings, each with its owner's email. */
export function useAdminMappings() {
  return useQuery({
    queryKey: adminMappingKeys.all,
    queryFn: () => getJson<AdminMapping[]>("/api/admin/mappings"),
  });
}

/** DELETE /api/admin/mappings/:id. */
export function useDeleteAdminMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<MessageResponse>("DELETE", `/api/admin/mappings/${id}`),
    onSuccess: () => {
      toast({ title: "Mapping deleted successfully" });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminMappingKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminUsersKeyPrefix }),
        queryClient.invalidateQueries({ queryKey: mappingKeys.all }),
      ]);
    },
  });
}
