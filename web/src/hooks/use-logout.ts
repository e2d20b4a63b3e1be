import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "@/lib/toast";
import { useSessionActions } from "./use-session-actions";

/**
 * Logout as SPEC.md §2's admin header does it: the stored key and role (and any impersonation) are forgotten,
 * the cached answers dropped, 'Successfully logged out' toasted, and the browser sent to `to`.
 */
export function useLogout() {
  const { signOut } = useSessionActions();
  const navigate = useNavigate();

  return useCallback(
    (to: string) => {
      signOut();
      toast({ title: "Successfully logged out" });
      navigate(to);
    },
    [signOut, navigate],
  );
}
