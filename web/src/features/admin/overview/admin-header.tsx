import { LogOut } from "lucide-react";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { useLogout } from "@/hooks/use-logout";

/**
 * The admin screens' header (SPEC.md §2): the link to the index, and Logout, which leads to /admin-login (the index
 * is admin-only, so it would show a signed-out admin the 404).
 */
export function AdminHeader() {
  const logout = useLogout();

  return (
    <div className="border-b bg-muted/40">
      <div className="container mx-auto flex h-14 items-center justify-between px-4">
        <Link to="/" className="font-semibold hover:underline">
          Dynamic Content Manager
        </Link>
        <Button variant="outline" size="sm" onClick={() => logout("/admin-login")}>
          <LogOut aria-hidden="true" />
          Logout
        </Button>
      </div>
    </div>
  );
}
