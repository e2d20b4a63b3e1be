import { BillingLayout } from "./billing-layout";

/** /admin/billing: every PayPal transaction, filtered, with the export and a way into each one's detail. */
export function BillingPage() {
  return <BillingLayout />;
}
