import { useId } from "react";
import type { ProductVersion } from "#contract/responses";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { isUnlimited } from "@/lib/limits";
import { cn } from "@/lib/utils";
import { formatMonthlyPrice } from "@/lib/format-money";
import { usePayPalConfig } from "@/queries/paypal-config";
import { PlanSubscribeSlot } from "./plan-subscribe-slot";

/** The plan flagged 'Popular' (SPEC.md §9). */
export const POPULAR_PLAN_NAME = "Growth";

const showLimit = (limit: number | null) => (isUnlimited(limit) ? "Unlimited" : limit.toLocaleString("en-US"));

export function PlanCard({
  plan,
  current = false,
  subscribed = false,
}: {
  plan: ProductVersion;
  /** The plan the customer holds now: marked 'Current plan'. */
  current?: boolean;
  /** The plan the customer's live subscription pays for: no subscribe button for a second one. */
  subscribed?: boolean;
}) {
  const popular = plan.name === POPULAR_PLAN_NAME;
  const currency = usePayPalConfig().data?.currency;
  const titleId = useId();
  const limits = [
    { label: "Websites", value: showLimit(plan.websitesLimit) },
    { label: "Events per month", value: showLimit(plan.eventsLimit) },
    { label: "Dynamic content generations per month", value: showLimit(plan.dynamicContentLimit) },
  ];

  return (
    <Card
      role="group"
      aria-labelledby={titleId}
      className={cn("relative flex h-full flex-col overflow-hidden", popular && "border-2 border-primary")}
    >
      {popular && (
        <span className="absolute top-5 -right-9 w-36 rotate-45 bg-primary py-1 text-center text-xs font-semibold text-primary-foreground">
          Popular
        </span>
      )}
      <CardHeader>
        <CardTitle id={titleId} className={cn("text-xl", popular && "pr-10")}>
          {plan.name}
        </CardTitle>
        {current && (
          <Badge variant="success" className="w-fit">
            Current plan
          </Badge>
        )}
        {plan.description && <CardDescription>{plan.description}</CardDescription>}
        {plan.price !== null && <p className="pt-2 text-3xl font-bold">{formatMonthlyPrice(plan.price, currency)}</p>}
      </CardHeader>
      <CardContent className="flex-1">
        <dl className="space-y-2 text-sm">
          {limits.map(({ label, value }) => (
            <div key={label} className="flex justify-between gap-4">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
      <CardFooter>
        {subscribed ? (
          <p className="text-sm text-muted-foreground">Your subscription pays for this plan.</p>
        ) : (
          <PlanSubscribeSlot plan={plan} current={current} />
        )}
      </CardFooter>
    </Card>
  );
}
