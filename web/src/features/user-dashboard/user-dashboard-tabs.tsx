import type { CustomerDashboard } from "../../../../worker/contract/responses";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { AccountTab } from "./account-tab";
import { BillingTab } from "./billing-tab";
import { UsageTab } from "./usage-tab";

export function UserDashboardTabs({ dashboard }: { dashboard: CustomerDashboard }) {
  return (
    <Tabs defaultValue="account">
      <TabsList>
        <TabsTrigger value="account">Account</TabsTrigger>
        <TabsTrigger value="usage">Usage</TabsTrigger>
        <TabsTrigger value="billing">Billing</TabsTrigger>
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
    </Tabs>
  );
}
