import { LogIn } from "lucide-react";
import type { AdminUser } from "../../../../worker/contract/responses";
import { Button } from "@/components/ui/button";
import { useImpersonation } from "@/hooks/use-impersonation";
import { useFetchUserApiKey } from "@/queries/admin-users";

/** Opens the customer dashboard as this user: fetches their key, then hands over to `useImpersonation`. */
export function ImpersonateButton({ user }: { user: Pick<AdminUser, "userId" | "email"> }) {
  const fetchApiKey = useFetchUserApiKey();
  const { start } = useImpersonation();

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
