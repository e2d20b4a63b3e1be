import { lazy } from "react";
import type { CustomerDashboard } from "#contract/responses";
import { LazyPanel } from "@/components/lazy-panel";
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
        <LazyPanel name="websites">
          <WebsitesCard />
        </LazyPanel>
      </TabsContent>
      <TabsContent value="webhooks">
        <LazyPanel name="webhooks">
          <WebhooksCard />
        </LazyPanel>
      </TabsContent>
    </Tabs>
  );
}
