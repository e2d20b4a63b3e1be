/**
 * @module The customer's webhooks (docs/webhooks.md): the list, adding one (its secret comes back once), deleting,
 * a test ping, and a webhook's delivery log a page at a time. Only the Webhooks tab's chunk imports this.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "#contract/responses";
import {
  WEBHOOKS_PER_CUSTOMER,
  type CreatedWebhook,
  type Webhook,
  type WebhookBody,
  type WebhookDelivery,
} from "#contract/webhooks";
import { apiJson, getPage } from "@/lib/api";
import { toast } from "@/lib/toast";

export const webhookKeys = {
  all: ["webhooks"] as const,
  list: () => [...webhookKeys.all, "list"] as const,
  deliveries: (id: string, offset: number) => [...webhookKeys.all, "deliveries", id, offset] as const,
};

/** The delivery log's page: the server's default (docs/api.md, "Lists"). */
export const DELIVERIES_PAGE_SIZE = 50;

export function useWebhooks() {
  return useQuery({
    queryKey: webhookKeys.list(),
    queryFn: () => getPage<Webhook>("/api/webhooks", { limit: WEBHOOKS_PER_CUSTOMER }),
  });
}

/** Registers a webhook. The form shows the server's refusal itself, so no toast for it. */
export function useAddWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookBody) => apiJson<CreatedWebhook>("POST", "/api/webhooks", body),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<MessageResponse>("DELETE", `/api/webhooks/${encodeURIComponent(id)}`),
    onSuccess: () => {
      toast({ title: "Webhook deleted" });
      return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
  });
}

/** Sends a `ping` now; the toast says what came of the attempt. */
export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<WebhookDelivery>("POST", `/api/webhooks/${encodeURIComponent(id)}/test`),
    onSuccess: (delivery) => {
      toast(
        delivery.status === "delivered"
          ? { title: "Test event delivered", description: `Your endpoint answered ${delivery.responseStatus}.` }
          : { variant: "destructive", title: "Test event not delivered", description: delivery.error ?? undefined },
      );
      return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
  });
}

/** A page of one webhook's delivery log, newest first. */
export function useDeliveries(id: string, offset: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, offset),
    queryFn: () =>
      getPage<WebhookDelivery>(`/api/webhooks/${encodeURIComponent(id)}/deliveries`, {
        limit: DELIVERIES_PAGE_SIZE,
        offset: offset || undefined,
      }),
    placeholderData: keepPreviousData,
  });
}
