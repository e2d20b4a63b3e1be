import { StatCard } from "@/components/stat-card";
import { useMappings } from "@/queries/mappings";
import { useStats } from "@/queries/stats";
import { groupMappings } from "./group-mappings";

const UNLIMITED = "∞";

/** The four stat cards. Counts come from /api/user/stats (with a key); unique URLs from the mapping groups. */
export function StatsOverview({ hasApiKey }: { hasApiKey: boolean }) {
  const stats = useStats({ enabled: hasApiKey }).data;
  const mappings = useMappings().data ?? [];

  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard title="Total API Requests" value={stats?.totalRequests ?? 0} />
      <StatCard title="Unique URLs" value={groupMappings(mappings).length} />
      <StatCard title="Request Limit" value={stats?.requestLimit ?? UNLIMITED} />
      <StatCard title="Last Month Requests" value={stats?.lastMonthRequests ?? 0} />
    </div>
  );
}
