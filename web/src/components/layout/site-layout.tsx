import { Suspense } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { LoadBoundary } from "@/components/load-boundary";
import { Spinner } from "@/components/ui/spinner";
import { SiteFooter } from "./site-footer";
import { TopBar } from "./top-bar";

/** Top bar, the current screen, footer. */
export function SiteLayout() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="flex-1">
        <LoadBoundary resetKey={pathname}>
          {/* Admin screens load lazily; the bars stay while their code arrives. */}
          <Suspense
            fallback={
              <div className="flex justify-center py-16">
                <Spinner />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </LoadBoundary>
      </main>
      <SiteFooter />
    </div>
  );
}
