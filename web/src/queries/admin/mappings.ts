/** @module Every customer's mappings for the admin console ("Event-Verwaltung"), and deleting one. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminMapping, MessageResponse } from "#contract/responses";
import { apiChange, getPage } from "@/lib/api";
import { removalNote } from "@/lib/delivery-note";
import { toast } from "@/lib/toast";
import { adminMappingKeys, adminUserKeys } from "./keys";
import { mappingKeys } from "../mappings";
import { PAGE_SIZE } from "@/hooks/use-page";

/**
 * GET /api/admin/mappings: a page of every customer's mappings, each with its owner's email and a preview of its
 * HTML; the server searches URL and HTML.
 */
export function useAdminMappings(searchTerm = "", offset = 0) {
  return useQuery({
    queryKey: adminMappingKeys.page(searchTerm, offset),
    queryFn: () =>
      getPage<AdminMapping>("/api/admin/mappings", {
        limit: PAGE_SIZE,
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
    mutationFn: ({ id }: Pick<AdminMapping, "id" | "publishedAt">) =>
      apiChange<MessageResponse>("DELETE", `/api/admin/mappings/${id}`),
    onSuccess: (answer, { publishedAt }) => {
      toast({ title: "Mapping deleted successfully", description: removalNote(answer, { wasLive: !!publishedAt }) });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminMappingKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
        queryClient.invalidateQueries({ queryKey: mappingKeys.all }),
      ]);
    },
  });
}
