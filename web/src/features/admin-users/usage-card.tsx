import type { AdminUser } from "../../../../worker/contract/responses";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { UsageBar } from "@/features/user-dashboard/usage-bar";
import type { VersionLimits } from "./version-limits";

/** SPEC.md §2 "Usage": the customer dashboard's bars (rounded, capped at 100, ∞ and 0% when unlimited). */
export function UsageCard({ user, limits }: { user: AdminUser; limits: VersionLimits }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Usage</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <UsageBar label="Websites" used={user.websitesUsed} limit={limits.websites} />
        <UsageBar label="Events (updates this month)" used={user.eventsUsed} limit={limits.events} />
        <UsageBar
          label="Dynamic content deliveries (generations this month)"
          used={user.dynamicContentDeliveryUsed}
          limit={limits.deliveries}
        />
      </CardContent>
    </Card>
  );
}
