import { PayPalButtons } from "@paypal/react-paypal-js";
import type { MessageResponse, ProductVersion } from "../../../../worker/contract/responses";
import { apiJson } from "@/lib/api";
import { usePayPalSubscriptions } from "./paypal-subscriptions";

/**
 * SPEC.md §4 "Subscription purchase": after PayPal approves, the subscription is stored as active and the page
 * reloads (plan, limits and billing period come from the server). A failure to store is only logged (§8).
 */
export async function storeApprovedSubscription(subscriptionId: string | null | undefined): Promise<void> {
  try {
    await apiJson<MessageResponse>("POST", "/api/store-subscription", {
      subscriptionId,
      status: "ACTIVE",
      updatedAt: new Date().toISOString(),
    });
  } catch (err) {
    console.error("Failed to store subscription", err);
    return;
  }
  window.location.reload();
}

/**
 * A plan's subscribe buttons, rendered by PayPal's SDK (SPEC.md §2) for a plan with a `paypalPlanId`; nothing
 * when PayPal is not configured. `custom_id` ties the subscription to the signed-in customer.
 */
export function PlanSubscribeSlot({ plan }: { plan: ProductVersion }) {
  const paypal = usePayPalSubscriptions();
  const planId = plan.paypalPlanId;
  if (!paypal || !planId) return null;

  return (
    <div className="w-full">
      <PayPalButtons
        style={{ layout: "vertical" }}
        createSubscription={(_data, actions) =>
          actions.subscription.create({ plan_id: planId, custom_id: paypal.userId })
        }
        onApprove={(data) => storeApprovedSubscription(data.subscriptionID)}
      />
    </div>
  );
}
