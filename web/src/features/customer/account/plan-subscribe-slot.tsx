import { PayPalButtons } from "@paypal/react-paypal-js";
import type { ProductVersion } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { useImpersonatedEmail } from "@/hooks/use-impersonation";
import { ApiError } from "@/lib/api";
import { usePayPalConfig } from "@/queries/paypal-config";
import { useExternalLinks } from "@/queries/site-config";
import { useStoreSubscription } from "@/queries/subscription";
import { usePayPalSubscriptions } from "./paypal-subscriptions";

/** What a plan that cannot be bought here says instead of subscribe buttons (docs/decisions.md, Issue 39). */
export const CONTACT_TO_SWITCH = "Contact us to switch to this plan";
export const UNSTORED_NOTE = "PayPal approved your subscription, but it is not stored yet.";

/** A failure worth sending the same subscription again for: the server or PayPal out of reach, not a refusal. */
const worthRetrying = (error: unknown) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

function ContactToSwitch() {
  const contact = useExternalLinks()?.contact;
  return (
    <p className="text-sm text-muted-foreground">
      {contact ? (
        <a href={contact} className="underline hover:text-foreground">
          Contact us
        </a>
      ) : (
        "Contact us"
      )}{" "}
      to switch to this plan
    </p>
  );
}

/**
 * A plan's subscribe buttons, rendered by PayPal's SDK (SPEC.md §2) for a plan with a `paypalPlanId`; nothing
 * while an admin acts as the customer (a payment must be the customer's own). A plan that cannot be bought (no
 * plan id, or PayPal not configured) says 'Contact us to switch to this plan', unless it is the current plan.
 * `custom_id` ties the subscription to the signed-in customer. After PayPal approves, the subscription is stored
 * (the server confirms it with PayPal) and the toast says how that went, success or failure (issue 25: SPEC.md §4's
 * reload and §8's silent log left a customer who had just paid without a word); the account then shows the plan.
 * When storing fails for want of PayPal or the server, the card keeps the approved subscription and offers 'Try
 * again', which stores that same subscription; no card offers a second approval meanwhile (issue 39).
 */
export function PlanSubscribeSlot({ plan, current = false }: { plan: ProductVersion; current?: boolean }) {
  const paypal = usePayPalSubscriptions();
  const config = usePayPalConfig().data;
  const impersonatedEmail = useImpersonatedEmail();
  const store = useStoreSubscription();
  const planId = plan.paypalPlanId;
  if (impersonatedEmail) return null;
  if (!planId || (config && !config.clientId)) return current ? null : <ContactToSwitch />;
  if (!paypal) return null;

  const storeApproved = (subscriptionId: string | null | undefined) =>
    store.mutateAsync(subscriptionId).then(
      () => paypal.setUnstored(null),
      (error: unknown) =>
        paypal.setUnstored(subscriptionId && worthRetrying(error) ? { subscriptionId, planVersionId: plan.id } : null),
    );

  const { unstored } = paypal;
  if (unstored) {
    if (unstored.planVersionId !== plan.id) return null;
    return (
      <div className="w-full space-y-2">
        <p className="text-sm">{UNSTORED_NOTE}</p>
        <Button
          className="w-full"
          disabled={store.isPending}
          onClick={() => void storeApproved(unstored.subscriptionId)}
        >
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="w-full">
      <PayPalButtons
        style={{ layout: "vertical" }}
        createSubscription={(_data, actions) =>
          actions.subscription.create({ plan_id: planId, custom_id: paypal.userId })
        }
        onApprove={(data) => storeApproved(data.subscriptionID)}
      />
    </div>
  );
}
