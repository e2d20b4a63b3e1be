import { useState } from "react";
import { LoadError, Loading } from "@/components/loading";
import { useAdminUsers } from "@/queries/admin-users";
import { UsersTable } from "./users-table";
import { nextSort, searchUsers, sortUsers, type UserSort, type UserSortField } from "./users-view";

interface UsersDataTableProps {
  searchTerm: string;
  defaultVersionName: string | null;
  onSelectUser: (userId: string) => void;
}

export const USERS_LOAD_ERROR = "Error loading user data";

export function UsersDataTable({ searchTerm, defaultVersionName, onSelectUser }: UsersDataTableProps) {
  const users = useAdminUsers();
  const [sort, setSort] = useState<UserSort | null>(null);

  if (users.isPending) return <Loading />;
  if (users.isError) return <LoadError>{USERS_LOAD_ERROR}</LoadError>;

  return (
    <UsersTable
      users={sortUsers(searchUsers(users.data, searchTerm), sort)}
      sort={sort}
      onSort={(field: UserSortField) => setSort((current) => nextSort(current, field))}
      defaultVersionName={defaultVersionName}
      onSelectUser={onSelectUser}
    />
  );
}
