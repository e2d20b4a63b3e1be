import { PageContainer } from "@/components/layout/page-container";
import { AdminActivity } from "./admin-activity";
import { AdminHeader } from "./admin-header";
import { AdminTiles } from "./admin-tiles";
import { SystemOverview } from "./system-overview";
import { UnclaimedSubscriptionsNotice } from "./unclaimed-subscriptions-notice";

/** /admin (and /users): the admin's start screen. */
export function AdminDashboardPage() {
  return (
    <>
      <AdminHeader />
      <PageContainer className="space-y-6">
        <h1 className="text-3xl font-bold">Admin Dashboard</h1>
        <AdminTiles />
        <UnclaimedSubscriptionsNotice />
        <SystemOverview />
        <AdminActivity />
      </PageContainer>
    </>
  );
}
