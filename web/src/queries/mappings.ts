import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Mapping, MessageResponse } from "../../../worker/contract/responses";
import type { MappingBody } from "../../../worker/contract/schemas";
import { apiJson, getJson } from "@/lib/api";
import { getApiKey } from "@/lib/storage";
import { toast } from "@/hooks/use-toast";

export const mappingKeys = { all: ["mappings"] as const };

export const NO_API_KEY_MESSAGE = "Please register and verify your email to get an API key.";

function requireApiKey() {
  if (!getApiKey()) throw new Error(NO_API_KEY_MESSAGE);
}

/** The customer's mappings, newest first; without a valid key (401) the list is empty. */
export function useMappings() {
  return useQuery({
    queryKey: mappingKeys.all,
    queryFn: async () => (await getJson<Mapping[]>("/api/mappings", { on401: "returnNull" })) ?? [],
  });
}

export function useAddMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MappingBody) => {
      requireApiKey();
      return apiJson<Mapping>("POST", "/api/mappings", body);
    },
    onSuccess: () => {
      toast({ title: "URL mapping added successfully" });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}

export function useDeleteMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => {
      requireApiKey();
      return apiJson<MessageResponse>("DELETE", `/api/mappings/${id}`);
    },
    onSuccess: () => {
      toast({ title: "URL mapping deleted successfully" });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}
