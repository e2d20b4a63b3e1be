/**
 * @module TanStack Query set up as SPEC.md §7 asks: cached data never goes stale, nothing retries or refetches
 * by itself. Every failed query or mutation shows the destructive 'Error' toast with the server's message,
 * unless its `meta` says `silent` (when the screen reports the failure itself).
 */
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { toast } from "@/lib/toast";
import { describeError } from "./api";

export interface RequestMeta extends Record<string, unknown> {
  /** The screen shows this failure itself; no toast. */
  silent?: boolean;
  /** Toast text when the server sent no message of its own. */
  errorMessage?: string;
  /** The answer is the same for every visitor: signing in or out keeps it (see `useSessionActions`). */
  keepAcrossSessions?: boolean;
}

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: RequestMeta;
    mutationMeta: RequestMeta;
  }
}

export function showErrorToast(error: unknown, meta?: RequestMeta) {
  if (meta?.silent) return;
  toast({ variant: "destructive", title: "Error", description: describeError(error, meta?.errorMessage) });
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => showErrorToast(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => showErrorToast(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}
