import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { UrlRules } from "#contract/responses";
import type { UrlRulesBody } from "#contract/schemas";
import { apiChange, getJson } from "@/lib/api";
import { deliveryNote } from "@/lib/delivery-note";
import { toast } from "@/lib/toast";
import { mappingKeys } from "./mappings";

export const urlRulesKeys = { all: ["url-rules"] as const };

/** The tracking parameters every URL drops, and the customer's own (docs/url-rules.md). */
export function useUrlRules() {
  return useQuery({ queryKey: urlRulesKeys.all, queryFn: () => getJson<UrlRules>("/api/url-rules") });
}

export function useSaveUrlRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UrlRulesBody) => apiChange<UrlRules>("PUT", "/api/url-rules", body),
    onSuccess: (answer) => {
      toast({ title: "Ignored parameters saved", description: deliveryNote(answer) });
      queryClient.setQueryData(urlRulesKeys.all, answer.data);
      // The tester's answers depend on them.
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}
