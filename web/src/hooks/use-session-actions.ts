import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { Role } from "#contract/responses";
import { clearImpersonation, clearSession, setApiKey, setUserRole } from "@/lib/storage";

const dropSessionAnswers = (queryClient: QueryClient) =>
  queryClient.removeQueries({ predicate: (query) => !query.meta?.keepAcrossSessions });

/**
 * Changes who the browser acts as. `signIn` stores the key and the role (none: a role stored for an earlier
 * key is forgotten). Cached answers belonged to the previous key (and never go stale on their own), so both
 * actions drop the cache, all but the answers that are the same for every visitor (queries whose meta says
 * `keepAcrossSessions`, such as the site configuration). Both also end an impersonation: whoever signs in or
 * out now is no longer an admin viewing a customer (`useImpersonation` stores its entries after signing in).
 */
export function useSessionActions() {
  const queryClient = useQueryClient();

  const signIn = useCallback(
    (apiKey: string, role: Role | null = null) => {
      clearImpersonation();
      setApiKey(apiKey);
      setUserRole(role);
      dropSessionAnswers(queryClient);
    },
    [queryClient],
  );

  const signOut = useCallback(() => {
    clearImpersonation();
    clearSession();
    dropSessionAnswers(queryClient);
  }, [queryClient]);

  return useMemo(() => ({ signIn, signOut }), [signIn, signOut]);
}
