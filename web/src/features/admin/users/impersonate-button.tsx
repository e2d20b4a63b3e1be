import { LogIn } from "lucide-react";
import type { AdminUser } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { useImpersonation } from "@/hooks/use-impersonation";
import { useFetchUserApiKey } from "@/queries/admin/users";

/**
 * Opens the customer dashboard as this user: fetches a key that acts as them (recorded by the server, valid for
 * an hour), then hands over to `useImpersonation`. Admins cannot be impersonated, so their rows have no button.
 */
export function ImpersonateButton({ user }: { user: Pick<AdminUser, "userId" | "email" | "role"> }) {
  const fetchApiKey = useFetchUserApiKey();
  const { start } = useImpersonation();
  if (user.role !== "user") return null;

  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      aria-label={`Als ${user.email} einloggen`}
      disabled={fetchApiKey.isPending}
      onClick={() =>
        fetchApiKey.mutate(
          { userId: user.userId, email: user.email },
          { onSuccess: (apiKey) => start({ apiKey, email: user.email }) },
        )
      }
    >
      <LogIn aria-hidden="true" />
      Login
    </Button>
  );
}
