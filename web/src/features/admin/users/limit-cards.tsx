import type { AdminUser } from "#contract/responses";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { usageMeter } from "@/lib/usage-meter";
import type { VersionLimits } from "./version-limits";

function LimitCard({ title, hint, used, limit }: { title: string; hint: string; used: number; limit: number | null }) {
  return (
    <Card role="group" aria-label={title}>
      <CardHeader className="pb-2">
        <CardTitle className="text-base">{title}</CardTitle>
        <CardDescription>{hint}</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold">
          {used} / {usageMeter(used, limit).limitLabel}
        </p>
      </CardContent>
    </Card>
  );
}

/** The version's three limits, each with what the user has used of it. */
export function LimitCards({ user, limits }: { user: AdminUser; limits: VersionLimits }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <LimitCard title="Webseiten" hint="Aktive Webseiten" used={user.websitesUsed} limit={limits.websites} />
      <LimitCard title="Events" hint="Updates diesen Monat" used={user.eventsUsed} limit={limits.events} />
      <LimitCard
        title="Dynamic Content"
        hint="Auslieferungen diesen Monat"
        used={user.dynamicContentDeliveryUsed}
        limit={limits.deliveries}
      />
    </div>
  );
}
