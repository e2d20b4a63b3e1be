import { Link, useLocation } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { useExternalLinks } from "@/queries/site-config";
import { BrandLogo } from "./brand-logo";

/** Where the Login link would only point at the page the visitor is already signed in to, or on. */
const PATHS_WITHOUT_LOGIN_LINK = ["/login", "/user-dashboard"];

export function TopBar() {
  const { pathname } = useLocation();
  const showLogin = !PATHS_WITHOUT_LOGIN_LINK.includes(pathname);
  const pricing = useExternalLinks()?.pricing;

  return (
    <header className="border-b bg-background">
      <nav className="container mx-auto flex h-16 items-center justify-between px-4">
        <BrandLogo />
        <div className="flex items-center gap-2">
          {pricing && (
            <Button asChild variant="ghost">
              <a href={pricing}>Pricing</a>
            </Button>
          )}
          {showLogin && (
            <Button asChild variant="outline">
              <Link to="/login">Login</Link>
            </Button>
          )}
        </div>
      </nav>
    </header>
  );
}
