import type { AdminOverview } from "../../../../worker/contract/responses";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatEuros } from "./format-euros";

function OverviewCard({ title, value }: { title: string; value: string | number }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-3xl font-bold">{value}</p>
      </CardContent>
    </Card>
  );
}

/** The three System Overview figures (render only). */
export function OverviewCards({ overview }: { overview: AdminOverview }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <OverviewCard title="Total Users" value={overview.totalUsers} />
      <OverviewCard title="Revenue Last 7 Days" value={formatEuros(overview.revenueLast7Days)} />
      <OverviewCard title="Revenue Current Year" value={formatEuros(overview.revenueCurrentYear)} />
    </div>
  );
}
