import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { Role } from "../../../worker/contract/responses";
import { clearImpersonation, clearSession, setApiKey, setUserRole } from "@/lib/storage";

/**
 * Changes who the browser acts as. `signIn` stores the key and the role (none: a role stored for an earlier
 * key is forgotten). Cached answers belonged to the previous key (and never go stale on their
 * own), so both actions drop the whole cache. Both also end an impersonation: whoever signs in or out now
 * is no longer an admin viewing a customer (`useImpersonation` stores its entries after signing in).
 */
export function useSessionActions() {
  const queryClient = useQueryClient();

  const signIn = useCallback(
    (apiKey: string, role: Role | null = null) => {
      clearImpersonation();
      setApiKey(apiKey);
      setUserRole(role);
      queryClient.removeQueries();
    },
    [queryClient],
  );

  const signOut = useCallback(() => {
    clearImpersonation();
    clearSession();
    queryClient.removeQueries();
  }, [queryClient]);

  return useMemo(() => ({ signIn, signOut }), [signIn, signOut]);
}
