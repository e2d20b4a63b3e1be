import { useEffect, useState, type ReactNode } from "react";
import { Navigate } from "react-router-dom";
import { Spinner } from "@/components/ui/spinner";
import { useSessionActions } from "@/hooks/use-session-actions";
import { getApiKey, getUserRole } from "@/lib/storage";
import { useAuthCheck } from "@/queries/auth";

const NOT_FOUND = "/404";

interface AdminGuardProps {
  children: ReactNode;
  /** Fetches the screen's code while the key is checked, so that it shows without suspending (lazy-screen.ts). */
  preload?: () => Promise<unknown>;
}

/**
 * Shows `children` only to a confirmed admin (SPEC.md §2): without a stored key and admin role it goes to
 * /404 at once; otherwise the key is checked with the server, and a failed check forgets key and role.
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
  const rejected = auth.isError || (auth.isSuccess && auth.data.role !== "admin");

  useEffect(() => {
    if (rejected) signOut();
  }, [rejected, signOut]);

  if (!storedAsAdmin || rejected) return <Navigate to={NOT_FOUND} replace />;
  if (!auth.isSuccess || !screenFetched) {
    return (
      <div className="flex justify-center py-16">
        <Spinner />
      </div>
    );
  }
  return children;
}
