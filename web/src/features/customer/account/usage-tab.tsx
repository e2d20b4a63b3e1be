import type { CustomerDashboard } from "#contract/responses";
import { formatNumber } from "#contract/input-caps";
import { UsageCard } from "@/components/usage-card";
import { COUNTS_LAG_NOTE } from "@/lib/counts-note";

/**
 * Usage against the customer's limits (SPEC.md §2: the plan's, or an admin's per-user ones); events and
 * generations count the current month. What known crawlers and a visitor past their 500 views a day received is
 * counted but not billed, and said apart.
 */
export function UsageTab({ dashboard }: { dashboard: CustomerDashboard }) {
  const { usage, limits } = dashboard;
  const notBilled = usage.notBilled.contentGenerations;

  return (
    <UsageCard
      note={COUNTS_LAG_NOTE}
      bars={[
        { label: "Active websites", used: usage.activeWebsites, limit: limits.websitesLimit },
        { label: "API content updates this month", used: usage.dynamicEvents, limit: limits.eventsLimit },
        {
          label: "Content generations this month",
          used: usage.contentGenerations,
          limit: limits.dynamicContentLimit,
          note:
            notBilled > 0
              ? `Not billed: ${formatNumber(notBilled)} (search and AI crawlers, and visitors past 500 a day)`
              : undefined,
        },
      ]}
    />
  );
}
