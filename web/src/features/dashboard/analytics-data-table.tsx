import { PagedRows } from "@/components/paged-rows";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { usePage } from "@/hooks/use-page";
import { useAnalytics } from "@/queries/analytics";
import { AnalyticsTable } from "./analytics-table";
import { UsageChart } from "./usage-chart";

/** The Analytics tab, a page at a time; it exists only while a key is stored. */
export function AnalyticsDataTable() {
  const page = usePage(null);
  const analytics = useAnalytics({ enabled: true, offset: page.offset });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Analytics</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <UsageChart />
        <PagedRows query={analytics} page={page}>
          {(rows) => <AnalyticsTable rows={rows} />}
        </PagedRows>
      </CardContent>
    </Card>
  );
}
