import { PayPalButtons } from "@paypal/react-paypal-js";
import type { ProductVersion } from "#contract/responses";
import { useImpersonatedEmail } from "@/hooks/use-impersonation";
import { useStoreSubscription } from "@/queries/subscription";
import { usePayPalSubscriptions } from "./paypal-subscriptions";

/**
 * A plan's subscribe buttons, rendered by PayPal's SDK (SPEC.md §2) for a plan with a `paypalPlanId`; nothing
 * when PayPal is not configured, or while an admin acts as the customer (a payment must be the customer's own).
 * `custom_id` ties the subscription to the signed-in customer. After PayPal approves, the subscription is stored
 * (the server confirms it with PayPal) and the toast says how that went, success or failure (issue 25: SPEC.md §4's
 * reload and §8's silent log left a customer who had just paid without a word); the account then shows the plan.
 */
export function PlanSubscribeSlot({ plan }: { plan: ProductVersion }) {
  const paypal = usePayPalSubscriptions();
  const impersonatedEmail = useImpersonatedEmail();
  const store = useStoreSubscription();
  const planId = plan.paypalPlanId;
  if (!paypal || !planId || impersonatedEmail) return null;

  return (
    <div className="w-full">
      <PayPalButtons
        style={{ layout: "vertical" }}
        createSubscription={(_data, actions) =>
          actions.subscription.create({ plan_id: planId, custom_id: paypal.userId })
        }
        onApprove={(data) =>
          store.mutateAsync(data.subscriptionID).then(
            () => undefined,
            () => undefined,
          )
        }
      />
    </div>
  );
}
