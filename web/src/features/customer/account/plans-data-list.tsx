import type { ProductVersion } from "#contract/responses";
import { Loading } from "@/components/loading";
import { useProductVersions } from "@/queries/product-versions";
import { useUserDashboard } from "@/queries/user-dashboard";
import { PlanCards } from "./plan-cards";

/** The plans a customer can choose: every plan but the default one (SPEC.md §9), in the server's order. */
export function choosablePlans(plans: ProductVersion[]): ProductVersion[] {
  return plans.filter((plan) => !plan.isDefault);
}

/** Loads the plans; a failure is toasted (with the server's message) and leaves a short note here. */
export function PlansDataList() {
  const plans = useProductVersions();
  const dashboard = useUserDashboard().data;

  if (plans.isPending) return <Loading />;
  if (plans.isError) {
    return <p className="py-8 text-center text-muted-foreground">The plans could not be loaded.</p>;
  }
  const subscription = dashboard?.subscription;
  const paying = subscription && ["pending", "active"].includes(subscription.status);
  return (
    <PlanCards
      plans={choosablePlans(plans.data)}
      currentPlanId={dashboard?.productVersion?.id ?? null}
      subscribedPlanId={paying ? subscription.productVersionId : null}
    />
  );
}
