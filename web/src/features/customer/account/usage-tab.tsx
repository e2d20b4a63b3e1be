import type { CustomerDashboard } from "#contract/responses";
import { formatNumber } from "#contract/input-caps";
import { UsageCard } from "@/components/usage-card";

/**
 * Usage against the plan's limits (SPEC.md §2); events and generations count the current month. What known
 * crawlers and a visitor past their 500 views a day received is counted but not billed, and said apart.
 */
export function UsageTab({ dashboard }: { dashboard: CustomerDashboard }) {
  const { usage, productVersion: plan } = dashboard;
  const notBilled = usage.notBilled.contentGenerations;

  return (
    <UsageCard
      bars={[
        { label: "Active websites", used: usage.activeWebsites, limit: plan?.websitesLimit ?? null },
        { label: "API content updates this month", used: usage.dynamicEvents, limit: plan?.eventsLimit ?? null },
        {
          label: "Content generations this month",
          used: usage.contentGenerations,
          limit: plan?.dynamicContentLimit ?? null,
          note:
            notBilled > 0
              ? `Not billed: ${formatNumber(notBilled)} (search and AI crawlers, and visitors past 500 a day)`
              : undefined,
        },
      ]}
    />
  );
}
