import { useStoredApiKey } from "@/hooks/use-stored-session";
import { DashboardLayout } from "./dashboard-layout";

/** /dashboard: the Dynamic Content Manager. Parts that need an api key appear only when one is stored. */
export function DashboardPage() {
  const hasApiKey = useStoredApiKey() !== null;
  return <DashboardLayout hasApiKey={hasApiKey} />;
}
