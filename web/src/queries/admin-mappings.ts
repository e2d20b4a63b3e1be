/** @module Every customer's mappings for the admin console ("Event-Verwaltung"), and deleting one. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminMapping, MessageResponse } from "../../../worker/contract/responses";
import { apiJson, getPage } from "@/lib/api";
import { toast } from "@/hooks/use-toast";
import { mappingKeys } from "./mappings";

export const adminMappingKeys = {
  all: ["admin", "mappings"] as const,
  page: (searchTerm: string, offset: number) => [...adminMappingKeys.all, searchTerm, offset] as const,
};

/**
 * The admin users' detail carries their mappings and the list their counts; the prefix is spelled out here so
 * this file does not import `admin-users.ts`, which imports this one.
 */
const adminUsersKeyPrefix = ["admin", "users"] as const;

/**
 * GET /api/admin/mappings: a page of every customer's mappings, each with its owner's email and a preview of its
 * HTML; the server searches URL and HTML.
 */
export function useAdminMappings(searchTerm = "", offset = 0) {
  return useQuery({
    queryKey: adminMappingKeys.page(searchTerm, offset),
    queryFn: () =>
      getPage<AdminMapping>("/api/admin/mappings", {
        searchTerm: searchTerm || undefined,
        offset: offset || undefined,
      }),
    placeholderData: keepPreviousData,
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
