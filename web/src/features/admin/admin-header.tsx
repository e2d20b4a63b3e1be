import { LogOut } from "lucide-react";
import { Link, useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { toast } from "@/hooks/use-toast";
import { useSessionActions } from "@/hooks/use-session-actions";

export function AdminHeader() {
  const { signOut } = useSessionActions();
  const navigate = useNavigate();

  function logout() {
    signOut();
    toast({ title: "Successfully logged out" });
    navigate("/");
  }

  return (
    <div className="border-b bg-muted/40">
      <div className="container mx-auto flex h-14 items-center justify-between px-4">
        <Link to="/" className="font-semibold hover:underline">
          Dynamic Content Manager
        </Link>
        <Button variant="outline" size="sm" onClick={logout}>
          <LogOut aria-hidden="true" />
          Logout
        </Button>
      </div>
    </div>
  );
}
