import { lazy, Suspense } from "react";
import type { CustomerDashboard } from "../../../../worker/contract/responses";
import { LoadBoundary } from "@/components/load-boundary";
import { Loading } from "@/components/loading";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { AccountTab } from "./account-tab";
import { BillingTab } from "./billing-tab";
import { UsageTab } from "./usage-tab";

/** Its own chunk, loaded when the tab is first opened (the initial bundle's budget, docs/spa.md). */
const WebhooksCard = lazy(() => import("../webhooks/webhooks-card").then((m) => ({ default: m.WebhooksCard })));

export function UserDashboardTabs({ dashboard }: { dashboard: CustomerDashboard }) {
  return (
    <Tabs defaultValue="account">
      <TabsList>
        <TabsTrigger value="account">Account</TabsTrigger>
        <TabsTrigger value="usage">Usage</TabsTrigger>
        <TabsTrigger value="billing">Billing</TabsTrigger>
        <TabsTrigger value="webhooks">Webhooks</TabsTrigger>
      </TabsList>
      <TabsContent value="account">
        <AccountTab dashboard={dashboard} />
      </TabsContent>
      <TabsContent value="usage">
        <UsageTab dashboard={dashboard} />
      </TabsContent>
      <TabsContent value="billing">
        <BillingTab dashboard={dashboard} />
      </TabsContent>
      <TabsContent value="webhooks">
        <LoadBoundary resetKey="webhooks">
          <Suspense fallback={<Loading />}>
            <WebhooksCard />
          </Suspense>
        </LoadBoundary>
      </TabsContent>
    </Tabs>
  );
}
