import { useEffect, useRef, useState, type ReactNode } from "react";
import { Navigate } from "react-router-dom";
import { Spinner } from "@/components/ui/spinner";
import { useSessionActions } from "@/hooks/use-session-actions";
import { toast } from "@/lib/toast";
import { getApiKey, getUserRole } from "@/lib/storage";
import { useAuthCheck } from "@/queries/auth";

const NOT_FOUND = "/404";
const ADMIN_LOGIN = "/admin-login";

interface AdminGuardProps {
  children: ReactNode;
  /** Fetches the screen's code while the key is checked, so that it shows without suspending (lazy-screen.ts). */
  preload?: () => Promise<unknown>;
}

/**
 * Shows `children` only to a confirmed admin (SPEC.md §2): without a stored key and admin role it goes to
 * /404 at once; otherwise the key is checked with the server, and a failed check (an admin session ends after 12
 * hours, or was revoked) forgets key and role and leads to /admin-login, with a toast that says why.
 */
export function AdminGuard({ children, preload }: AdminGuardProps) {
  const storedAsAdmin = Boolean(getApiKey()) && getUserRole() === "admin";
  const auth = useAuthCheck({ enabled: storedAsAdmin });
  const [screenFetched, setScreenFetched] = useState(!preload);
  useEffect(() => {
    if (!storedAsAdmin || !preload) return;
    let current = true;
    // A chunk that cannot be fetched is left to the screen's own load, whose failure the load boundary shows.
    void preload()
      .catch(() => undefined)
      .finally(() => current && setScreenFetched(true));
    return () => {
      current = false;
    };
  }, [storedAsAdmin, preload]);
  const { signOut } = useSessionActions();
  // Once rejected, it stays so: signing out clears the key and the check, and a render between that and the
  // navigation must not take the missing key for a visitor who never signed in (the 404).
  const sessionEnded = useRef(false);
  const rejected = sessionEnded.current || auth.isError || (auth.isSuccess && auth.data.role !== "admin");

  useEffect(() => {
    if (!rejected || sessionEnded.current) return;
    sessionEnded.current = true;
    signOut();
    toast({ title: "Session ended", description: "Your admin session has ended. Please log in again." });
  }, [rejected, signOut]);

  if (rejected) return <Navigate to={ADMIN_LOGIN} replace />;
  if (!storedAsAdmin) return <Navigate to={NOT_FOUND} replace />;
  if (!auth.isSuccess || !screenFetched) {
    return (
      <div className="flex justify-center py-16">
        <Spinner />
      </div>
    );
  }
  return children;
}
