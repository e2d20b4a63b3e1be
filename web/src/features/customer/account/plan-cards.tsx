import type { ProductVersion } from "#contract/responses";
import { PlanCard } from "./plan-card";

/**
 * The plans as cards. The customer's current plan is marked; the plan their live subscription pays for offers no
 * second subscription.
 */
export function PlanCards({
  plans,
  currentPlanId = null,
  subscribedPlanId = null,
}: {
  plans: ProductVersion[];
  currentPlanId?: number | null;
  subscribedPlanId?: number | null;
}) {
  if (plans.length === 0) {
    return <p className="py-8 text-center text-muted-foreground">No plans available.</p>;
  }
  return (
    <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
      {plans.map((plan) => (
        <li key={plan.id}>
          <PlanCard plan={plan} current={plan.id === currentPlanId} subscribed={plan.id === subscribedPlanId} />
        </li>
      ))}
    </ul>
  );
}
