import { useState } from "react";
import { PagedRows } from "@/components/paged-rows";
import { useDebouncedValue } from "@/hooks/use-debounced-value";
import { usePage } from "@/hooks/use-page";
import { useAdminUsers } from "@/queries/admin/users";
import { UsersTable } from "./users-table";
import { nextSort, type UserSort, type UserSortField } from "./users-view";

interface UsersDataTableProps {
  searchTerm: string;
  defaultVersionName: string | null;
  onSelectUser: (userId: string) => void;
}

export const USERS_LOAD_ERROR = "Error loading user data";

/** The users a page at a time; the server searches (once typing pauses) and sorts. */
export function UsersDataTable({ searchTerm, defaultVersionName, onSelectUser }: UsersDataTableProps) {
  const [sort, setSort] = useState<UserSort | null>(null);
  const search = useDebouncedValue(searchTerm.trim());
  const page = usePage([search, sort]);
  const users = useAdminUsers({
    searchTerm: search || undefined,
    sortBy: sort?.field,
    sortDirection: sort?.direction,
    offset: page.offsetParam,
  });

  return (
    <PagedRows query={users} page={page} loadError={USERS_LOAD_ERROR}>
      {(rows) => (
        <UsersTable
          users={rows}
          sort={sort}
          onSort={(field: UserSortField) => setSort((current) => nextSort(current, field))}
          defaultVersionName={defaultVersionName}
          onSelectUser={onSelectUser}
        />
      )}
    </PagedRows>
  );
}
