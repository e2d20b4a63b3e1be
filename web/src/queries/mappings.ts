import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  DeletedMapping,
  GroupDeleteResponse,
  Mapping,
  MappingMatch,
  MessageResponse,
  PreviewLink,
} from "#contract/responses";
import { VERSIONS_KEPT, type MappingVersion } from "#contract/versions";
import type { MappingBody, MappingChangeBody, MappingMatchQuery } from "#contract/schemas";
import type { VariantInput } from "#contract/experiments";
import type { BulkFormat, ImportReport } from "#contract/bulk";
import type { Page } from "#contract/page";
import { ApiError, apiChange, apiJson, apiRequest, getJson, getPage, RawBody, withQuery } from "@/lib/api";
import { appliedNote, mappingNote, removalNote } from "@/lib/delivery-note";
import { getApiKey } from "@/lib/storage";
import { toast } from "@/lib/toast";
import { PAGE_SIZE } from "@/hooks/use-page";

export const mappingKeys = {
  all: ["mappings"] as const,
  groups: (searchTerm: string, offset: number) => [...mappingKeys.all, "by-url", searchTerm, offset] as const,
  match: (query: MappingMatchQuery) => [...mappingKeys.all, "match", query] as const,
  versions: (id: number) => [...mappingKeys.all, "versions", id] as const,
  deleted: (offset: number) => [...mappingKeys.all, "deleted", offset] as const,
  /** A variant's link under its mapping's key, so that revoking the mapping's links drops them all. */
  preview: (id: number, variant?: string) =>
    variant === undefined ? (["mapping-preview", id] as const) : (["mapping-preview", id, variant] as const),
};

/** A mapping's experiment (docs/experiments.md) as a body carries it: `variants: null` stops it. */
export interface ExperimentFields {
  variants?: VariantInput[] | null;
  goals?: string[];
}

export const NO_API_KEY_MESSAGE = "Please register and verify your email to get an API key.";

function requireApiKey() {
  if (!getApiKey()) throw new Error(NO_API_KEY_MESSAGE);
}

const NO_ROWS: Page<Mapping> = { rows: [], total: 0 };

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
          limit: PAGE_SIZE,
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

/**
 * The URL tester: which mapping serves the URL, for a visitor with the attributes given (docs/audiences.md), and why
 * (asked once a URL is submitted; a query without a URL asks nothing).
 */
export function useMappingMatch(query: MappingMatchQuery) {
  return useQuery({
    queryKey: mappingKeys.match(query),
    queryFn: () => getJson<MappingMatch>(withQuery("/api/mappings/match", { ...query })),
    enabled: query.url !== "",
    retry: false,
  });
}

/**
 * A change to the customer's mappings: sent only with a key, toasted with `title` and what `note` says happened to
 * the customer's pages, and the mapping lists asked again.
 */
function useMappingChange<V, T>(
  send: (variables: V) => Promise<Answer<T>>,
  title: (variables: V, data: T) => string,
  note: (answer: Answer<T>, variables: V) => string | undefined,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => {
      requireApiKey();
      return send(variables);
    },
    onSuccess: (answer, variables) => {
      toast({ title: title(variables, answer.data), description: note(answer, variables) });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}

type Answer<T> = Awaited<ReturnType<typeof apiChange<T>>>;

/** A saved mapping's note: a draft, scheduled, or live, as the answer says. */
const savedNote = (answer: Answer<Mapping>) => mappingNote(answer.data, answer);

export const useAddMapping = () =>
  useMappingChange(
    (body: MappingBody & ExperimentFields) => apiChange<Mapping>("POST", "/api/mappings", body),
    () => "URL mapping added successfully",
    savedNote,
  );

/** `PATCH /api/mappings/{id}`: the fields the customer changed (the rest stay). */
export const useEditMapping = (id: number) =>
  useMappingChange(
    (body: MappingChangeBody & ExperimentFields) => apiChange<Mapping>("PATCH", `/api/mappings/${id}`, body),
    () => "URL mapping updated",
    savedNote,
  );

/** Publish (live at once, any schedule to publish dropped) or unpublish (off the pages, schedules dropped). */
export const useSetMappingStatus = () =>
  useMappingChange(
    ({ mapping, published }: { mapping: Mapping; published: boolean }) =>
      apiChange<Mapping>("PATCH", `/api/mappings/${mapping.id}/status`, {
        status: published ? "published" : "unpublished",
      }),
    ({ published }) => (published ? "URL mapping published" : "URL mapping unpublished"),
    (answer, { mapping, published }) =>
      published
        ? savedNote(answer)
        : removalNote(answer, { wasLive: !!mapping.publishedAt, olderTakesOver: olderMappings(mapping) > 0 }),
  );

/** How many other mappings the row's URL has (the dashboard's rows are one per URL: `urlMappingCount`). */
export const olderMappings = (mapping: Mapping) => Math.max(0, (mapping.urlMappingCount ?? 1) - 1);

/**
 * Removes the row's mapping, or with `wholeUrl` every mapping of its URL (restorable for 30 days). Removing only
 * the newest of several leaves the older ones, and a published one of them is delivered instead.
 */
export const useDeleteMapping = () =>
  useMappingChange(
    ({ mapping, wholeUrl = false }: { mapping: Mapping; wholeUrl?: boolean }) =>
      apiChange<MessageResponse & Partial<GroupDeleteResponse>>(
        "DELETE",
        withQuery(`/api/mappings/${mapping.id}`, { scope: wholeUrl ? "url" : undefined }),
      ),
    ({ wholeUrl }, data) => (wholeUrl ? data.message : "URL mapping deleted successfully"),
    (answer, { mapping, wholeUrl }) =>
      // Oldest first: while some are left, the newest still shows.
      answer.data.remaining
        ? "Your pages do not change until the last of them is removed."
        : removalNote(answer, {
            wasLive: wholeUrl || !!mapping.publishedAt,
            olderTakesOver: !wholeUrl && olderMappings(mapping) > 0,
          }),
  );

/** A mapping's versions, newest first (all that are kept fit one page: docs/history.md). */
export function useMappingVersions(id: number, enabled: boolean) {
  return useQuery({
    queryKey: mappingKeys.versions(id),
    queryFn: () => getPage<MappingVersion>(`/api/mappings/${id}/versions`, { limit: VERSIONS_KEPT }),
    enabled,
  });
}

export const useRestoreVersion = (id: number) =>
  useMappingChange(
    (version: number) => apiChange<Mapping>("POST", `/api/mappings/${id}/versions/${version}/restore`),
    (version) => `Version ${version} restored`,
    savedNote,
  );

/**
 * A signed link, valid 24 hours, that shows the mapping on its page whatever its state (docs/publishing.md): made
 * when the dialog first opens (a new link is harmless, but one is enough). With `variant`, the link shows that
 * variant of the mapping's experiment (docs/experiments.md); without, the control.
 */
export function usePreviewLink(id: number, enabled: boolean, variant?: string) {
  return useQuery({
    queryKey: mappingKeys.preview(id, variant),
    queryFn: async () => {
      requireApiKey();
      const body = variant === undefined ? undefined : { variant };
      return (await apiChange<PreviewLink>("POST", `/api/mappings/${id}/preview`, body)).data;
    },
    enabled,
    // Reused while the dashboard stays open for an hour; the link itself is valid for 24.
    staleTime: 60 * 60 * 1000,
    retry: false,
  });
}

/**
 * Ends every preview link of the mapping (docs/publishing.md); the dialog then shows a new one, which works until
 * revoked in its turn.
 */
export function useRevokePreviewLinks(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<MessageResponse>("DELETE", `/api/mappings/${id}/preview`),
    onSuccess: ({ message }) => {
      toast({ title: "Preview links revoked", description: message });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.preview(id) });
    },
  });
}

export const DELETED_PAGE_SIZE = 20;

/** A page of the customer's mappings deleted in the last 30 days, most recently deleted first. */
export function useDeletedMappings(offset: number) {
  return useQuery({
    queryKey: mappingKeys.deleted(offset),
    queryFn: () => getPage<DeletedMapping>("/api/mappings/deleted", { limit: DELETED_PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });
}

export const useRestoreDeletedMapping = () =>
  useMappingChange(
    (id: number) => apiChange<Mapping>("POST", `/api/mappings/deleted/${id}/restore`),
    () => "URL mapping restored",
    savedNote,
  );

const CONTENT_TYPES: Record<BulkFormat, string> = { csv: "text/csv", json: "application/json" };

/**
 * A bulk import (docs/bulk.md): checked only (`dryRun`), or applied. A file with refused rows answers 422 with its
 * report, which is an answer to show here, not an error.
 */
export function useImportMappings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ text, format, dryRun }: { text: string; format: BulkFormat; dryRun: boolean }) => {
      requireApiKey();
      const path = withQuery("/api/mappings/import", { dryRun: dryRun ? 1 : undefined });
      try {
        return await apiChange<ImportReport>("POST", path, new RawBody(text, CONTENT_TYPES[format]));
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 422)) throw error;
        return { data: JSON.parse(error.bodyText) as ImportReport, deliveryPending: false, everywhereBy: null };
      }
    },
    onSuccess: (answer) => {
      if (!answer.data.applied) return;
      toast({ title: `Import done: ${answer.data.message}`, description: appliedNote(answer) });
      return queryClient.invalidateQueries({ queryKey: mappingKeys.all });
    },
  });
}

/** Downloads every mapping of the customer's as a file, named as the server says. */
export function useExportMappings() {
  return useMutation({
    mutationFn: async (format: BulkFormat) => {
      requireApiKey();
      const response = await apiRequest("GET", withQuery("/api/mappings/export", { format }));
      const disposition = response.headers.get("Content-Disposition") ?? "";
      const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `mappings.${format}`;
      const href = URL.createObjectURL(await response.blob());
      const link = Object.assign(document.createElement("a"), { href, download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(href), 0);
    },
  });
}
