import { PageContainer } from "@/components/layout/page-container";
import { UserDashboardData } from "./user-dashboard-data";

export function UserDashboardLayout() {
  return (
    <PageContainer className="max-w-5xl space-y-6">
      <h1 className="text-3xl font-bold">Customer Dashboard</h1>
      <UserDashboardData />
    </PageContainer>
  );
}
