import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";
import { AdminHeader } from "@/features/admin/overview/admin-header";
import { AdminUsersLayout } from "./admin-users-layout";

/** The query parameter naming the selected user, so the browser's back button returns to the overview. */
const USER_PARAM = "user";

/** /admin/users: the overview of users and events, or one user's tabs once a row was clicked. */
export function AdminUsersPage() {
  const [params, setParams] = useSearchParams();
  const selectedUserId = params.get(USER_PARAM);
  const selectUser = useCallback((userId: string) => setParams({ [USER_PARAM]: userId }), [setParams]);
  const showOverview = useCallback(() => setParams({}), [setParams]);

  return (
    <>
      <AdminHeader />
      <AdminUsersLayout selectedUserId={selectedUserId} onSelectUser={selectUser} onBack={showOverview} />
    </>
  );
}
