import type { CustomerSubscription } from "#contract/responses";
import { ConfirmedOutlineButton } from "@/components/confirm-action-button";
import { useImpersonatedEmail } from "@/hooks/use-impersonation";
import { formatGermanDay } from "@/lib/format-date";
import { useCancelSubscription } from "@/queries/subscription";

const STATUS_TEXT: Record<CustomerSubscription["status"], string> = {
  pending: "Waiting for the first payment",
  active: "Active",
  suspended: "Suspended: PayPal could not charge it",
  cancelled: "Cancelled",
  expired: "Expired",
};

/** Statuses in which PayPal may still charge, so cancelling means something. */
const CANCELLABLE: CustomerSubscription["status"][] = ["pending", "active", "suspended"];

/**
 * Where the customer's PayPal subscription stands: its plan, status and the day its payments cover, and
 * 'Cancel subscription' while PayPal may still charge it (not while an admin acts as the customer: money is the
 * customer's to move). The plan stays until the paid period ends; the server's answer says until when.
 */
export function SubscriptionStatus({ subscription }: { subscription: CustomerSubscription }) {
  const impersonatedEmail = useImpersonatedEmail();
  const cancel = useCancelSubscription();
  const cancellable = CANCELLABLE.includes(subscription.status) && !impersonatedEmail;

  return (
    <div className="space-y-2">
      <p>
        <span className="font-semibold">{subscription.plan ?? "-"}</span>
        {" · "}
        <span data-testid="subscription-status">{STATUS_TEXT[subscription.status]}</span>
      </p>
      <p className="text-sm text-muted-foreground">
        Paid through: {subscription.paidThrough ? formatGermanDay(subscription.paidThrough) : "no payment yet"}
      </p>
      {cancellable && (
        <ConfirmedOutlineButton
          label="Cancel subscription"
          pending={cancel.isPending}
          title="Cancel your subscription?"
          description="PayPal will not charge it again. Your plan stays until the paid period ends; then your account moves to the default plan."
          confirmLabel="Cancel subscription"
          cancelLabel="Keep subscription"
          onConfirm={() => cancel.mutate()}
        />
      )}
    </div>
  );
}
