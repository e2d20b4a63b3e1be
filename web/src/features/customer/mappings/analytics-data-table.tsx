import { PagedRows } from "@/components/paged-rows";
import { UsageChart } from "@/components/usage-chart";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { usePage } from "@/hooks/use-page";
import { COUNTS_LAG_NOTE } from "@/lib/counts-note";
import { CUSTOMER_SERIES, useAnalytics } from "@/queries/analytics";
import { AnalyticsTable } from "./analytics-table";

/** The Analytics tab, a page at a time; it exists only while a key is stored. */
export function AnalyticsDataTable() {
  const page = usePage(null);
  const analytics = useAnalytics({ enabled: true, offset: page.offset });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Analytics</CardTitle>
        <CardDescription>{COUNTS_LAG_NOTE}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <UsageChart seriesPath={CUSTOMER_SERIES} />
        <PagedRows query={analytics} page={page}>
          {(rows) => <AnalyticsTable rows={rows} />}
        </PagedRows>
      </CardContent>
    </Card>
  );
}
