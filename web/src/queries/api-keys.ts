/**
 * @module Rotating one's own API key (docs/api.md "Keys"). After a rotation the new key is stored at once: the old one
 * no longer works. Revoking a customer's key is an admin call (`admin-users.ts`).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyResponse } from "#contract/responses";
import { apiJson } from "@/lib/api";
import { setApiKey } from "@/lib/storage";
import { toast } from "@/lib/toast";
import { adminUserKeys } from "./admin/keys";
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
