import { Loading } from "@/components/loading";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useAnalytics } from "@/queries/analytics";
import { AnalyticsTable } from "./analytics-table";

/** The Analytics tab; it exists only while a key is stored. */
export function AnalyticsDataTable() {
  const analytics = useAnalytics({ enabled: true });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Analytics</CardTitle>
      </CardHeader>
      <CardContent>{analytics.isPending ? <Loading /> : <AnalyticsTable rows={analytics.data ?? []} />}</CardContent>
    </Card>
  );
}
