import { ArrowLeft } from "lucide-react";
import { Loading } from "@/components/loading";
import { Button } from "@/components/ui/button";
import { describeError } from "@/lib/api";
import { useAdminUser } from "@/queries/admin/users";
import { UserDetailTabs } from "./user-detail-tabs";

export const USER_LOAD_ERROR = "Error loading user data";

/** One user's tabs, with the way back to the overview; a load failure is reported here. */
export function UserDetailData({ userId, onBack }: { userId: string; onBack: () => void }) {
  const user = useAdminUser(userId);

  return (
    <div className="space-y-4">
      <Button type="button" variant="outline" size="sm" onClick={onBack}>
        <ArrowLeft aria-hidden="true" />
        Zurück zur Übersicht
      </Button>
      {user.isPending ? (
        <Loading />
      ) : user.isError ? (
        <div className="space-y-2 py-8 text-center">
          <p className="font-medium text-destructive">{USER_LOAD_ERROR}</p>
          <p className="text-sm text-muted-foreground">{describeError(user.error)}</p>
        </div>
      ) : (
        <>
          <h2 className="text-2xl font-semibold break-all">{user.data.email}</h2>
          <UserDetailTabs user={user.data} />
        </>
      )}
    </div>
  );
}
