import type { AdminOverview } from "#contract/responses";
import { StatCard } from "@/components/stat-card";
import { formatMoney } from "@/lib/format-money";

/** The three System Overview figures (render only); revenue in the billing currency the server names. */
export function OverviewCards({ overview }: { overview: AdminOverview }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <StatCard title="Total Users" value={overview.totalUsers} />
      <StatCard title="Revenue Last 7 Days" value={formatMoney(overview.revenueLast7Days, overview.currency)} />
      <StatCard title="Revenue Current Year" value={formatMoney(overview.revenueCurrentYear, overview.currency)} />
    </div>
  );
}
