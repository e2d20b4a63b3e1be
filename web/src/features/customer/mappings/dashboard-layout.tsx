import { Suspense, useEffect } from "react";
import { Link } from "react-router-dom";
import { CustomerNav } from "@/components/customer-nav";
import { LazyPanel } from "@/components/lazy-panel";
import { LoadBoundary } from "@/components/load-boundary";
import { PageContainer } from "@/components/layout/page-container";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { lazyScreen } from "@/lib/lazy-screen";
import { StatsOverview } from "./stats-overview";

/**
 * The tabs behind the overview, each its own chunk (docs/spa.md "Code splitting"), fetched once the overview shows,
 * so that opening a tab waits for its rows only, not for its code too.
 */
const MappingsPanel = lazyScreen(() => import("./mappings-panel").then((m) => m.MappingsPanel));
const AnalyticsDataTable = lazyScreen(() => import("./analytics-data-table").then((m) => m.AnalyticsDataTable));
/** The getting-started checklist (docs/getting-started.md): nothing shows until it has loaded and has steps to show. */
const GettingStartedChecklist = lazyScreen(() =>
  import("../getting-started/getting-started-checklist").then((m) => m.GettingStartedChecklist),
);

export function DashboardLayout({ hasApiKey }: { hasApiKey: boolean }) {
  useEffect(() => {
    // Fetched ahead, a tab renders at once when opened, without suspending (lib/lazy-screen.ts).
    MappingsPanel.preload().catch(() => undefined);
    if (hasApiKey) AnalyticsDataTable.preload().catch(() => undefined);
  }, [hasApiKey]);

  return (
    <PageContainer className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-3xl font-bold">Dynamic Content Manager</h1>
        <div className="flex flex-wrap items-center gap-4">
          <Link to="/snippet" className="text-sm text-primary underline-offset-4 hover:underline">
            Dynamic Content Snippet
          </Link>
          <CustomerNav to="/user-dashboard" label="My account" />
        </div>
      </div>
      {hasApiKey && (
        <LoadBoundary resetKey="getting-started">
          <Suspense fallback={null}>
            <GettingStartedChecklist />
          </Suspense>
        </LoadBoundary>
      )}
      <Tabs defaultValue="overview">
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="mappings">URL Mappings</TabsTrigger>
          {hasApiKey && <TabsTrigger value="analytics">Analytics</TabsTrigger>}
        </TabsList>
        <TabsContent value="overview">
          <StatsOverview hasApiKey={hasApiKey} />
        </TabsContent>
        <TabsContent value="mappings">
          <LazyPanel name="mappings">
            <MappingsPanel hasApiKey={hasApiKey} />
          </LazyPanel>
        </TabsContent>
        {hasApiKey && (
          <TabsContent value="analytics">
            <LazyPanel name="analytics">
              <AnalyticsDataTable />
            </LazyPanel>
          </TabsContent>
        )}
      </Tabs>
    </PageContainer>
  );
}
