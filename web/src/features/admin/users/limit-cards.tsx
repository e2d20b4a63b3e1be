import { useId, type ReactNode } from "react";
import type { AdminUser } from "#contract/responses";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { usageMeter } from "@/lib/usage-meter";
import { useSetLimitOverrides, type LimitOverrides } from "@/queries/admin/users";
import { LimitNumberInput } from "./limit-number-input";
import type { VersionLimits } from "./version-limits";

/** The admin's own limit for this user in place of the version's: empty follows the version, 0 is unlimited. */
function OverrideInput({ user, field }: { user: AdminUser; field: keyof LimitOverrides }) {
  const setLimits = useSetLimitOverrides();
  const id = useId();
  return (
    <div className="mt-3 space-y-1">
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        Eigenes Limit (leer: wie die Version, 0: unbegrenzt)
      </Label>
      <LimitNumberInput
        id={id}
        saved={user.limitOverrides[field]}
        save={(limit, reset) =>
          setLimits.mutate({ userId: user.userId, limits: { [field]: limit } }, { onError: reset })
        }
        placeholder="Version"
        disabled={setLimits.isPending}
        className="h-8 w-32"
      />
    </div>
  );
}

function LimitCard({
  title,
  hint,
  used,
  limit,
  override,
}: {
  title: string;
  hint: string;
  used: number;
  limit: number | null;
  override?: ReactNode;
}) {
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
        {override}
      </CardContent>
    </Card>
  );
}

/**
 * The three limits that hold for the user, each with what the user has used of it; websites and dynamic content
 * with the admin's per-user limit (SPEC.md §5's `uniqueUrlLimit`, `dynamicContentLimit`).
 */
export function LimitCards({ user, limits }: { user: AdminUser; limits: VersionLimits }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <LimitCard
        title="Webseiten"
        hint="Aktive Webseiten"
        used={user.websitesUsed}
        limit={limits.websites}
        override={<OverrideInput key={user.limitOverrides.uniqueUrlLimit} user={user} field="uniqueUrlLimit" />}
      />
      <LimitCard title="Events" hint="Updates diesen Monat" used={user.eventsUsed} limit={limits.events} />
      <LimitCard
        title="Dynamic Content"
        hint="Auslieferungen diesen Monat"
        used={user.dynamicContentDeliveryUsed}
        limit={limits.deliveries}
        override={
          <OverrideInput key={user.limitOverrides.dynamicContentLimit} user={user} field="dynamicContentLimit" />
        }
      />
    </div>
  );
}
