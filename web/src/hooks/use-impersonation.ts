import { useCallback, useMemo, useSyncExternalStore } from "react";
import { useNavigate } from "react-router-dom";
import { getApiKey, getImpersonatedEmail, getImpersonation, setImpersonation, subscribeToStorage } from "@/lib/storage";
import { useSessionActions } from "./use-session-actions";

/**
 * An admin viewing the customer dashboard as a customer (SPEC.md §2 and §3). `start` keeps the admin's key
 * aside, acts with the customer's key and opens /user-dashboard; `stop` restores the admin's key and role and
 * returns to /admin. Both drop the query cache (through `useSessionActions`). `impersonatedEmail` is the
 * customer's email while an impersonation is stored, else null.
 */
/** The customer's email while an admin acts as them, else null; for screens that only need to know. */
export function useImpersonatedEmail(): string | null {
  return useSyncExternalStore(subscribeToStorage, getImpersonatedEmail, () => null);
}

export function useImpersonation() {
  const impersonatedEmail = useImpersonatedEmail();
  const { signIn } = useSessionActions();
  const navigate = useNavigate();

  const start = useCallback(
    ({ apiKey, email }: { apiKey: string; email: string }) => {
      // Switching from one customer to the next keeps the admin's key, not the previous customer's.
      const adminApiKey = getImpersonation()?.adminApiKey ?? getApiKey();
      if (!adminApiKey) throw new Error("Only a signed-in admin can impersonate a user");
      signIn(apiKey, "user");
      setImpersonation({ adminApiKey, email });
      navigate("/user-dashboard");
    },
    [signIn, navigate],
  );

  const stop = useCallback(() => {
    const impersonation = getImpersonation();
    // signIn also clears the impersonation entries.
    if (impersonation) signIn(impersonation.adminApiKey, "admin");
    navigate("/admin");
  }, [signIn, navigate]);

  return useMemo(() => ({ impersonatedEmail, start, stop }), [impersonatedEmail, start, stop]);
}
