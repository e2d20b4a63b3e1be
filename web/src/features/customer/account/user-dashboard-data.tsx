import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Loading } from "@/components/loading";
import { describeError } from "@/lib/api";
import { useUserDashboard } from "@/queries/user-dashboard";
import { UserDashboardTabs } from "./user-dashboard-tabs";

export const LOAD_ERROR_MESSAGE = "Error loading user data";

/** Loads the dashboard; a failure (no or a rejected key, too) is reported here rather than toasted. */
export function UserDashboardData() {
  const dashboard = useUserDashboard();

  if (dashboard.isPending) return <Loading />;
  if (dashboard.isError) {
    return (
      <div className="space-y-3 py-8 text-center">
        <p className="font-medium text-destructive">{LOAD_ERROR_MESSAGE}</p>
        <p className="text-sm text-muted-foreground">{describeError(dashboard.error)}</p>
        <Button asChild variant="outline">
          <Link to="/login">Go to Login</Link>
        </Button>
      </div>
    );
  }
  return <UserDashboardTabs dashboard={dashboard.data} />;
}
