import { lazy, Suspense } from "react";
import type { CustomerDashboard } from "../../../../worker/contract/responses";
import { LoadBoundary } from "@/components/load-boundary";
import { Loading } from "@/components/loading";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { AccountTab } from "./account-tab";
import { BillingTab } from "./billing-tab";
import { UsageTab } from "./usage-tab";

/** Each its own chunk, loaded when the tab is first opened (the initial bundle's budget, docs/spa.md). */
const WebhooksCard = lazy(() => import("../webhooks/webhooks-card").then((m) => ({ default: m.WebhooksCard })));
const WebsitesCard = lazy(() => import("../websites/websites-card").then((m) => ({ default: m.WebsitesCard })));

export function UserDashboardTabs({ dashboard }: { dashboard: CustomerDashboard }) {
  return (
    <Tabs defaultValue="account">
      <TabsList>
        <TabsTrigger value="account">Account</TabsTrigger>
        <TabsTrigger value="usage">Usage</TabsTrigger>
        <TabsTrigger value="billing">Billing</TabsTrigger>
        <TabsTrigger value="websites">Websites</TabsTrigger>
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
      <TabsContent value="websites">
        <LoadBoundary resetKey="websites">
          <Suspense fallback={<Loading />}>
            <WebsitesCard />
          </Suspense>
        </LoadBoundary>
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
