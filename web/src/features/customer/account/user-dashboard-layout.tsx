import { CustomerNav } from "@/components/customer-nav";
import { PageContainer } from "@/components/layout/page-container";
import { UserDashboardData } from "./user-dashboard-data";

export function UserDashboardLayout() {
  return (
    <PageContainer className="max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-3xl font-bold">Customer Dashboard</h1>
        <CustomerNav to="/dashboard" label="Manage mappings" />
      </div>
      <UserDashboardData />
    </PageContainer>
  );
}
