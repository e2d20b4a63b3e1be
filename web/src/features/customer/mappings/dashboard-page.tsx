import { ImpersonationBar } from "@/components/impersonation-bar";
import { useStoredApiKey } from "@/hooks/use-stored-session";
import { DashboardLayout } from "./dashboard-layout";

/**
 * /dashboard: the Dynamic Content Manager. Parts that need an api key appear only when one is stored. An admin
 * viewing a customer's mappings keeps the impersonation bar, the way back to the console.
 */
export function DashboardPage() {
  const hasApiKey = useStoredApiKey() !== null;
  return (
    <>
      <ImpersonationBar />
      <DashboardLayout hasApiKey={hasApiKey} />
    </>
  );
}
