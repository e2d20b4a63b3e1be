import type { ReactNode } from "react";
import type { CustomerDashboard } from "#contract/responses";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatGermanDay } from "@/lib/format-date";
import { IntegrationCard } from "./integration-card";
import { PlanChooser } from "./plan-chooser";
import { SubscriptionStatus } from "./subscription-status";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Email, user id, plan (with the plan chooser), the PayPal subscription if any, billing period, then the integration card. */
export function AccountTab({ dashboard }: { dashboard: CustomerDashboard }) {
  const plan = dashboard.productVersion;

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">Account</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="space-y-4">
            <Row label="Email">{dashboard.email}</Row>
            <Row label="User ID">
              <span className="font-mono text-sm">{dashboard.userId}</span>
            </Row>
            <Row label="Product Version">
              <div className="space-y-2">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">{plan?.name ?? "-"}</span>
                  {plan && <Badge variant="success">Current plan</Badge>}
                </p>
                {plan?.description && <p className="text-sm text-muted-foreground">{plan.description}</p>}
                <PlanChooser />
              </div>
            </Row>
            {dashboard.subscription && (
              <Row label="Subscription">
                <SubscriptionStatus subscription={dashboard.subscription} />
              </Row>
            )}
            <Row label="Billing Period Start">{formatGermanDay(dashboard.billingPeriodStart)}</Row>
            <Row label="Billing Period End">{formatGermanDay(dashboard.billingPeriodEnd)}</Row>
          </dl>
        </CardContent>
      </Card>
      <IntegrationCard apiKey={dashboard.apiKey} jsSnippet={dashboard.jsSnippet} />
    </div>
  );
}
