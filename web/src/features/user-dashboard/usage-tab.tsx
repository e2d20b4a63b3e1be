import type { CustomerDashboard } from "../../../../worker/contract/responses";
import { UsageCard } from "./usage-card";

/** Usage against the plan's limits (SPEC.md §2); events and generations count the current month. */
export function UsageTab({ dashboard }: { dashboard: CustomerDashboard }) {
  const { usage, productVersion: plan } = dashboard;

  return (
    <UsageCard
      bars={[
        { label: "Active websites", used: usage.activeWebsites, limit: plan?.websitesLimit ?? null },
        { label: "API content updates this month", used: usage.dynamicEvents, limit: plan?.eventsLimit ?? null },
        {
          label: "Content generations this month",
          used: usage.contentGenerations,
          limit: plan?.dynamicContentLimit ?? null,
        },
      ]}
    />
  );
}
