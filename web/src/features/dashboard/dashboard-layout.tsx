import { Link } from "react-router-dom";
import { CustomerNav } from "@/components/customer-nav";
import { PageContainer } from "@/components/layout/page-container";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { AnalyticsDataTable } from "./analytics-data-table";
import { MappingsPanel } from "./mappings-panel";
import { StatsOverview } from "./stats-overview";

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
          <MappingsPanel hasApiKey={hasApiKey} />
        </TabsContent>
        {hasApiKey && (
          <TabsContent value="analytics">
            <AnalyticsDataTable />
          </TabsContent>
        )}
      </Tabs>
    </PageContainer>
  );
}
