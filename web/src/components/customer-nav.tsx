import { LogOut } from "lucide-react";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { useImpersonation } from "@/hooks/use-impersonation";
import { useLogout } from "@/hooks/use-logout";
import { useStoredApiKey } from "@/hooks/use-stored-session";

interface CustomerNavProps {
  /** The customer's other screen, and what its link says. */
  to: "/dashboard" | "/user-dashboard";
  label: string;
}

/**
 * The customer's way between /dashboard and /user-dashboard, and out. Logout shows while a key is stored and
 * forgets everything the browser holds; during an impersonation that includes the admin's own key, so it
 * opens the admin login (the yellow bar is the way back to the console without logging out).
 */
export function CustomerNav({ to, label }: CustomerNavProps) {
  const hasApiKey = useStoredApiKey() !== null;
  const { impersonatedEmail } = useImpersonation();
  const logout = useLogout();

  return (
    <nav aria-label="Customer" className="flex flex-wrap items-center gap-2">
      <Button asChild variant="outline" size="sm">
        <Link to={to}>{label}</Link>
      </Button>
      {hasApiKey && (
        <Button variant="ghost" size="sm" onClick={() => logout(impersonatedEmail ? "/admin-login" : "/login")}>
          <LogOut aria-hidden="true" />
          Logout
        </Button>
      )}
    </nav>
  );
}
