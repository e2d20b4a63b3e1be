import type { CustomerDashboard } from "../../../../worker/contract/responses";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { UsageBar } from "./usage-bar";

/** Usage against the plan's limits (SPEC.md §2); events and generations count the current month. */
export function UsageTab({ dashboard }: { dashboard: CustomerDashboard }) {
  const { usage, productVersion: plan } = dashboard;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Usage</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <UsageBar label="Active websites" used={usage.activeWebsites} limit={plan?.websitesLimit ?? null} />
        <UsageBar label="API content updates this month" used={usage.dynamicEvents} limit={plan?.eventsLimit ?? null} />
        <UsageBar
          label="Content generations this month"
          used={usage.contentGenerations}
          limit={plan?.dynamicContentLimit ?? null}
        />
      </CardContent>
    </Card>
  );
}
