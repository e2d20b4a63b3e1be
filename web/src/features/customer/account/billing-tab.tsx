import type { CustomerDashboard } from "#contract/responses";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatGermanPeriod } from "@/lib/format-date";
import { PaymentHistoryDataTable } from "./payment-history-data-table";

export function BillingTab({ dashboard }: { dashboard: CustomerDashboard }) {
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">Current Billing Period</CardTitle>
        </CardHeader>
        <CardContent>
          <p>{formatGermanPeriod(dashboard.billingPeriodStart, dashboard.billingPeriodEnd)}</p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">Payment History</CardTitle>
        </CardHeader>
        <CardContent>
          <PaymentHistoryDataTable />
        </CardContent>
      </Card>
    </div>
  );
}
