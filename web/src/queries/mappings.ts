import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Mapping, MappingMatch, MessageResponse } from "../../../worker/contract/responses";
import type { MappingVersion } from "../../../worker/contract/versions";
import type { MappingBody } from "../../../worker/contract/schemas";
import { ApiError, apiChange, deliveryNote, getJson, getPage, withQuery, type PageOf } from "@/lib/api";
import { getApiKey } from "@/lib/storage";
import { toast } from "@/hooks/use-toast";

export const mappingKeys = {
  all: ["mappings"] as const,
  groups: (searchTerm: string, offset: number) => [...mappingKeys.all, "by-url", searchTerm, offset] as const,
  match: (url: string) => [...mappingKeys.all, "match", url] as const,
  versions: (id: number) => [...mappingKeys.all, "versions", id] as const,
};

export const NO_API_KEY_MESSAGE = "Please register and verify your email to get an API key.";

function requireApiKey() {
  if (!getApiKey()) throw new Error(NO_API_KEY_MESSAGE);
}

const NO_ROWS: PageOf<Mapping> = { rows: [], total: 0 };

/**
 * A page of the dashboard's rows: one per normalised URL, the newest mapping with the group's counts (SPEC.md §2),
 * newest first; the server groups and searches. Its total is the number of unique URLs. Without a valid key
 * (401) there are none.
 */
export function useMappingRows(searchTerm = "", offset = 0) {
  return useQuery({
    queryKey: mappingKeys.groups(searchTerm, offset),
    queryFn: async () => {
      try {
        return await getPage<Mapping>("/api/mappings", {
          group: "url",
          searchTerm: searchTerm || undefined,
          offset: offset || undefined,
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return NO_ROWS;
        throw error;
      }
    },
    placeholderData: keepPreviousData,
  });
}

/** The URL tester: which mapping serves `url` and why (asked once a URL is submitted; "" asks nothing). */
export function useMappingMatch(url: string) {
  return useQuery({
    queryKey: mappingKeys.match(url),
    queryFn: () => getJson<MappingMatch>(withQuery("/api/mappings/match", { url })),
    enabled: url !== "",
    retry: false,
  });
}

export function useAddMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MappingBody) => {
      requireApiKey();
      return apiChange<Mapping>("POST", "/api/mappings", body);
    },
    onSuccess: (answer) => {
      toast({ title: "URL mapping added successfully", description: deliveryNote(answer) });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}

export function useDeleteMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => {
      requireApiKey();
      return apiChange<MessageResponse>("DELETE", `/api/mappings/${id}`);
    },
    onSuccess: (answer) => {
      toast({ title: "URL mapping deleted successfully", description: deliveryNote(answer) });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}

/** A mapping's versions, newest first (all that are kept fit one page: docs/history.md). */
export function useMappingVersions(id: number, enabled: boolean) {
  return useQuery({
    queryKey: mappingKeys.versions(id),
    queryFn: () => getPage<MappingVersion>(`/api/mappings/${id}/versions`),
    enabled,
  });
}

export function useRestoreVersion(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => {
      requireApiKey();
      return apiChange<Mapping>("POST", `/api/mappings/${id}/versions/${version}/restore`);
    },
    onSuccess: (answer, version) => {
      toast({ title: `Version ${version} restored`, description: deliveryNote(answer) });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}
