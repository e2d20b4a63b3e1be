import { render } from "@testing-library/react";
import type { CustomerDashboard } from "#contract/responses";
import { AppProviders } from "@/app-providers";
import { PlanDialog } from "@/features/customer/account/plan-dialog";
import { createQueryClient } from "@/lib/query-client";

/** The plan dialog, open, with a fresh cache that already holds the customer's dashboard. */
export function renderPlanDialog(dashboard: CustomerDashboard) {
  const queryClient = createQueryClient();
  // The dashboard screen has loaded the customer before the dialog can be opened.
  queryClient.setQueryData(["user", "dashboard"], dashboard);
  return {
    queryClient,
    ...render(
      <AppProviders queryClient={queryClient}>
        <PlanDialog open onOpenChange={() => {}} />
      </AppProviders>,
    ),
  };
}
