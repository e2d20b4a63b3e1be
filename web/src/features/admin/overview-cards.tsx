import type { AdminOverview } from "../../../../worker/contract/responses";
import { StatCard } from "@/components/stat-card";
import { formatEuros } from "./format-euros";

/** The three System Overview figures (render only). */
export function OverviewCards({ overview }: { overview: AdminOverview }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <StatCard title="Total Users" value={overview.totalUsers} />
      <StatCard title="Revenue Last 7 Days" value={formatEuros(overview.revenueLast7Days)} />
      <StatCard title="Revenue Current Year" value={formatEuros(overview.revenueCurrentYear)} />
    </div>
  );
}
