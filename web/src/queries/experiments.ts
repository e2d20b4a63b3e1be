/**
 * @module A mapping's experiment (docs/experiments.md): its results, asked for when the results dialog opens, and
 * making a variant permanent, which ends the experiment. Apart from `queries/mappings.ts`, which the initial bundle
 * carries, since only the lazily loaded results dialog uses them. The results sit under the mappings' key, so any
 * change to a mapping asks for them again.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ExperimentResults } from "#contract/experiments";
import type { Mapping } from "#contract/responses";
import { apiChange, getJson } from "@/lib/api";
import { mappingNote } from "@/lib/delivery-note";
import { toast } from "@/lib/toast";
import { getApiKey } from "@/lib/storage";
import { mappingKeys, NO_API_KEY_MESSAGE } from "./mappings";

export const experimentKeys = {
  results: (id: number) => [...mappingKeys.all, "experiment", id] as const,
};

/** `GET /api/mappings/{id}/experiment`; a mapping without one answers 404, which the dialog shows itself. */
export function useExperimentResults(id: number, enabled: boolean) {
  return useQuery({
    queryKey: experimentKeys.results(id),
    queryFn: () => getJson<ExperimentResults>(`/api/mappings/${id}/experiment`),
    enabled,
    // Asked again at each opening of the dialog: visitors keep coming while it is closed.
    staleTime: 0,
    meta: { silent: true },
  });
}

/**
 * `POST /api/mappings/{id}/experiment/promote`: the variant's content becomes the mapping's, the experiment ends
 * and a version is recorded. Toasted with `title` and what happened to the pages, and the mapping lists asked again.
 */
export function usePromoteVariant(id: number, title: (variant: string) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variant: string) => {
      if (!getApiKey()) throw new Error(NO_API_KEY_MESSAGE);
      return apiChange<Mapping>("POST", `/api/mappings/${id}/experiment/promote`, { variant });
    },
    onSuccess: (answer, variant) => {
      toast({ title: title(variant), description: mappingNote(answer.data, answer) });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}
