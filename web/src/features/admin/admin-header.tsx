import { LogOut } from "lucide-react";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { useLogout } from "@/hooks/use-logout";

export function AdminHeader() {
  const logout = useLogout();

  return (
    <div className="border-b bg-muted/40">
      <div className="container mx-auto flex h-14 items-center justify-between px-4">
        <Link to="/" className="font-semibold hover:underline">
          Dynamic Content Manager
        </Link>
        <Button variant="outline" size="sm" onClick={() => logout("/")}>
          <LogOut aria-hidden="true" />
          Logout
        </Button>
      </div>
    </div>
  );
}
