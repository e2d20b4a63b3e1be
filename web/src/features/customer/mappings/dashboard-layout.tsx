import { lazy } from "react";
import { Link } from "react-router-dom";
import { CustomerNav } from "@/components/customer-nav";
import { LazyPanel } from "@/components/lazy-panel";
import { PageContainer } from "@/components/layout/page-container";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { StatsOverview } from "./stats-overview";

/** The tabs behind the overview, each its own chunk, loaded when first opened (docs/spa.md "Code splitting"). */
const MappingsPanel = lazy(() => import("./mappings-panel").then((m) => ({ default: m.MappingsPanel })));
const AnalyticsDataTable = lazy(() =>
  import("./analytics-data-table").then((m) => ({ default: m.AnalyticsDataTable })),
);

export function DashboardLayout({ hasApiKey }: { hasApiKey: boolean }) {
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
