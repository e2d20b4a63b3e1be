/**
 * @module The customer's PayPal subscription: storing one PayPal just approved (confirmed by the server with PayPal)
 * and cancelling it. Each says what happened in a toast, the server's own words, and refreshes the account: plan,
 * limits, billing period and payments. The plan dialog and the Account tab's subscription row use it.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "#contract/responses";
import { apiJson, describeError } from "@/lib/api";
import { toast } from "@/lib/toast";

/** Every answer about the signed-in customer's account (dashboard, stats, payment history) starts with this. */
const ACCOUNT_KEYS = ["user"] as const;

export function useStoreSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string | null | undefined) =>
      apiJson<MessageResponse>("POST", "/api/store-subscription", {
        subscriptionId,
        status: "ACTIVE",
        updatedAt: new Date().toISOString(),
      }),
    meta: { silent: true },
    onSuccess: ({ message }) => {
      toast({ title: "Subscription stored", description: message });
      return queryClient.invalidateQueries({ queryKey: ACCOUNT_KEYS });
    },
    onError: (error) =>
      toast({ variant: "destructive", title: "Failed to store subscription", description: describeError(error) }),
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<MessageResponse>("POST", "/api/user/subscription/cancel"),
    onSuccess: ({ message }) => {
      toast({ title: "Subscription cancelled", description: message });
      return queryClient.invalidateQueries({ queryKey: ACCOUNT_KEYS });
    },
  });
}
