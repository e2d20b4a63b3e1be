import { useEffect, type ReactNode } from "react";
import { Navigate } from "react-router-dom";
import { Spinner } from "@/components/ui/spinner";
import { useSessionActions } from "@/hooks/use-session-actions";
import { getApiKey, getUserRole } from "@/lib/storage";
import { useAuthCheck } from "@/queries/auth";

const NOT_FOUND = "/404";

/**
 * Shows `children` only to a confirmed admin (SPEC.md §2): without a stored key and admin role it goes to
 * /404 at once; otherwise the key is checked with the server, and a failed check forgets key and role.
 */
export function AdminGuard({ children }: { children: ReactNode }) {
  const storedAsAdmin = Boolean(getApiKey()) && getUserRole() === "admin";
  const auth = useAuthCheck({ enabled: storedAsAdmin });
  const { signOut } = useSessionActions();
  const rejected = auth.isError || (auth.isSuccess && auth.data.role !== "admin");

  useEffect(() => {
    if (rejected) signOut();
  }, [rejected, signOut]);

  if (!storedAsAdmin || rejected) return <Navigate to={NOT_FOUND} replace />;
  if (!auth.isSuccess) {
    return (
      <div className="flex justify-center py-16">
        <Spinner />
      </div>
    );
  }
  return children;
}
