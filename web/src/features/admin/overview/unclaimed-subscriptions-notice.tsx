import { Link } from "react-router-dom";
import { useUnclaimedSubscriptions } from "@/queries/admin/billing";

export const unclaimedNoticeText = (n: number) =>
  n === 1
    ? "PayPal charges 1 subscription that belongs to no account: its payments grant no plan."
    : `PayPal charges ${n.toLocaleString("en-US")} subscriptions that belong to no account: their payments grant no plan.`;
export const UNCLAIMED_NOTICE_LINK = "Link or cancel them on the Billing Dashboard";

/** The admin dashboard's alert while a paid subscription belongs to no account (the billing screen lists them). */
export function UnclaimedSubscriptionsNotice() {
  const unclaimed = useUnclaimedSubscriptions();
  const total = unclaimed.data?.total ?? 0;
  if (total === 0) return null;
  return (
    <div
      role="alert"
      aria-label="Paid subscriptions without an account"
      className="space-y-1 rounded-md border border-red-300 bg-red-50 p-4 text-sm"
    >
      <p>{unclaimedNoticeText(total)}</p>
      <Link to="/admin/billing" className="font-medium underline">
        {UNCLAIMED_NOTICE_LINK}
      </Link>
    </div>
  );
}
