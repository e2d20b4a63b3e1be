/**
 * @module The customer's websites (docs/edge-delivery.md): the list a page at a time, claiming or changing one,
 * checking its DNS proof now, releasing it. Only the Websites tab's chunk imports this.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse, Website, WebsiteStatus } from "#contract/responses";
import type { WebsiteMode } from "#contract/schemas";
import { apiChange, apiJson, getJson, getPage } from "@/lib/api";
import { deliveryNote } from "@/lib/delivery-note";
import { toast } from "@/lib/toast";
import { PAGE_SIZE } from "@/hooks/use-page";

export const websiteKeys = {
  all: ["websites"] as const,
  list: (offset: number) => [...websiteKeys.all, "list", offset] as const,
  status: (hostname: string) => [...websiteKeys.all, "status", hostname] as const,
};

const path = (hostname: string) => `/api/websites/${encodeURIComponent(hostname)}`;

export function useWebsites(offset: number) {
  return useQuery({
    queryKey: websiteKeys.list(offset),
    queryFn: () => getPage<Website>("/api/websites", { limit: PAGE_SIZE, offset: offset || undefined }),
    placeholderData: keepPreviousData,
  });
}

/** How often an edge website's status is read again while the tab is open and not every step is done. */
export const STATUS_RECHECK_MS = 20_000;

/** Re-read every 20 s until ready (a failed read is tried again too); never once every step is done. */
export const statusRefetchInterval = (status: WebsiteStatus | undefined) => (status?.ready ? false : STATUS_RECHECK_MS);

/**
 * An edge website's three steps to going live (GET /api/websites/{hostname}/status). The panel reports a failed read
 * itself. "Check now" is `useVerifyWebsite`, whose success refreshes this too (it invalidates every website query).
 */
export function useWebsiteStatus(hostname: string) {
  return useQuery({
    queryKey: websiteKeys.status(hostname),
    queryFn: () => getJson<WebsiteStatus>(`${path(hostname)}/status`),
    refetchInterval: (query) => statusRefetchInterval(query.state.data),
    meta: { silent: true },
  });
}

export interface WebsiteSettings {
  hostname: string;
  origin: string;
  mode: WebsiteMode;
  /** Left out: as it is (off for a new claim); null: off. */
  assetOrigin?: string | null;
}

/** Claims a website or changes it. The form shows the server's refusal itself, so no toast for it. */
export function useClaimWebsite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ hostname, ...settings }: WebsiteSettings) => apiChange<Website>("PUT", path(hostname), settings),
    meta: { silent: true },
    onSuccess: ({ data, ...delivery }) => {
      toast(
        data.status === "active"
          ? { title: `${data.hostname} saved`, description: deliveryNote(delivery) }
          : { title: `${data.hostname} claimed`, description: "Add the TXT record below to prove it is yours." },
      );
      return queryClient.invalidateQueries({ queryKey: websiteKeys.all });
    },
  });
}

/** Checks the website's TXT record now; the toast says what came of it. */
export function useVerifyWebsite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hostname: string) => apiChange<Website>("POST", `${path(hostname)}/verify`),
    onSuccess: ({ data, ...delivery }) => {
      toast(
        data.status === "active"
          ? { title: `${data.hostname} is proven`, description: deliveryNote(delivery) }
          : { variant: "destructive", title: "Not proven yet", description: data.checkProblem ?? undefined },
      );
      return queryClient.invalidateQueries({ queryKey: websiteKeys.all });
    },
  });
}

export function useReleaseWebsite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hostname: string) => apiJson<MessageResponse>("DELETE", path(hostname)),
    onSuccess: ({ message }) => {
      toast({ title: "Website removed", description: message });
      return queryClient.invalidateQueries({ queryKey: websiteKeys.all });
    },
  });
}
