import type { ProductVersion } from "../../../../worker/contract/responses";
import { PlanCard } from "./plan-card";

export function PlanCards({ plans }: { plans: ProductVersion[] }) {
  if (plans.length === 0) {
    return <p className="py-8 text-center text-muted-foreground">No plans available.</p>;
  }
  return (
    <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
      {plans.map((plan) => (
        <li key={plan.id}>
          <PlanCard plan={plan} />
        </li>
      ))}
    </ul>
  );
}
