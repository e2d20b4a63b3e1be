import { StatCard } from "@/components/stat-card";
import { UsageChart } from "@/components/usage-chart";
import { Card, CardContent } from "@/components/ui/card";
import { COUNTS_LAG_NOTE } from "@/lib/counts-note";
import { CUSTOMER_SERIES } from "@/queries/analytics";
import { useMappingRows } from "@/queries/mappings";
import { useStats } from "@/queries/stats";

const UNLIMITED = "∞";

/**
 * The four stat cards. Counts come from /api/user/stats (with a key); unique URLs are the number of the
 * dashboard's rows (one per normalised URL), the total of their first page. Below them, with a key, the last 30
 * days' requests, deliveries and crawler requests by day.
 */
export function StatsOverview({ hasApiKey }: { hasApiKey: boolean }) {
  const stats = useStats({ enabled: hasApiKey }).data;
  const uniqueUrls = useMappingRows().data?.total ?? 0;

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total API Requests" value={stats?.totalRequests ?? 0} />
        <StatCard title="Unique URLs" value={uniqueUrls} />
        <StatCard title="Request Limit" value={stats?.requestLimit ?? UNLIMITED} />
        <StatCard title="Last Month Requests" value={stats?.lastMonthRequests ?? 0} />
      </div>
      {hasApiKey && (
        <Card>
          <CardContent className="pt-6">
            <UsageChart seriesPath={CUSTOMER_SERIES} controls={false} />
            <p className="text-muted-foreground mt-2 text-xs">{COUNTS_LAG_NOTE}</p>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
