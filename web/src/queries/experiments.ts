/**
 * @module A mapping's experiment (docs/experiments.md): its results, asked for when the results dialog opens, and
 * making a variant permanent, which ends the experiment; and its holdout's results (docs/audiences.md, "Holdout"),
 * the same figures for the arms "holdout" and "audience". Apart from `queries/mappings.ts`, which the initial bundle
 * carries, since only the lazily loaded results dialog uses them. The results sit under the mappings' key, so any
 * change to a mapping asks for them again.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ExperimentResults, SegmentDimension } from "#contract/experiments";
import type { Mapping } from "#contract/responses";
import { apiChange, getJson } from "@/lib/api";
import { mappingNote } from "@/lib/delivery-note";
import { toast } from "@/lib/toast";
import { getApiKey } from "@/lib/storage";
import { mappingKeys, NO_API_KEY_MESSAGE } from "./mappings";

/** Whose results: the mapping's experiment, or its holdout's comparison (`GET /api/mappings/{id}/audience-results`). */
export type ResultsKind = "experiment" | "audience-results";

export const experimentKeys = {
  results: (id: number, kind: ResultsKind = "experiment", segment?: SegmentDimension) =>
    [...mappingKeys.all, kind, id, segment ?? "all"] as const,
};

/**
 * `GET /api/mappings/{id}/experiment` or `/audience-results`, split by `segment` when one is given; a mapping
 * without one answers 404, which the dialog shows itself. While another segment loads, the last figures stay.
 */
export function useExperimentResults(
  id: number,
  enabled: boolean,
  kind: ResultsKind = "experiment",
  segment?: SegmentDimension,
) {
  return useQuery({
    queryKey: experimentKeys.results(id, kind, segment),
    queryFn: () => getJson<ExperimentResults>(`/api/mappings/${id}/${kind}${segment ? `?segment=${segment}` : ""}`),
    enabled,
    // Asked again at each opening of the dialog: visitors keep coming while it is closed.
    staleTime: 0,
    placeholderData: keepPreviousData,
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
