/**
 * @module Rotating one's own API key and revoking a customer's (docs/api.md "Keys"). After a rotation the new key is
 * stored at once: the old one no longer works.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyResponse, MessageResponse } from "../../../worker/contract/responses";
import { apiJson } from "@/lib/api";
import { setApiKey } from "@/lib/storage";
import { toast } from "@/hooks/use-toast";
import { adminAuditKeys } from "./admin-audit";
import { adminUserKeys } from "./admin-users";
import { userDashboardKeys } from "./user-dashboard";

/** POST /api/user/api-key/rotate: a new key for the signed-in customer or admin; the old one stops working. */
export function useRotateApiKey({ success }: { success: { title: string; description: string } }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<ApiKeyResponse>("POST", "/api/user/api-key/rotate"),
    onSuccess: ({ apiKey }) => {
      setApiKey(apiKey);
      toast(success);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: userDashboardKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
      ]);
    },
  });
}

/** POST /api/admin/users/:userId/revoke-api-key: the customer's key (and any impersonation of them) stops working. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiJson<MessageResponse>("POST", `/api/admin/users/${encodeURIComponent(userId)}/revoke-api-key`),
    onSuccess: () => {
      toast({ title: "API-Key widerrufen", description: "Der alte API-Key funktioniert nicht mehr." });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminAuditKeys.all }),
      ]);
    },
  });
}
