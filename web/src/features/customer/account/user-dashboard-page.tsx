import { ImpersonationBar } from "@/components/impersonation-bar";
import { UserDashboardLayout } from "./user-dashboard-layout";

/** /user-dashboard: the customer's account, usage and billing, with their own api key (no guard). */
export function UserDashboardPage() {
  return (
    <>
      <ImpersonationBar />
      <UserDashboardLayout />
    </>
  );
}
