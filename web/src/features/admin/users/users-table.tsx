import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { MouseEvent, ReactNode } from "react";
import type { AdminUser } from "#contract/responses";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DeleteUserButton } from "./delete-user-button";
import { ImpersonateButton } from "./impersonate-button";
import { ProductVersionBadge } from "./product-version-badge";
import { RequestLimitInput } from "./request-limit-input";
import { UnverifiedMark } from "./unverified-mark";
import { UserStatusSwitch } from "./user-status-switch";
import type { UserSort, UserSortField } from "./users-view";

interface UsersTableProps {
  users: AdminUser[];
  sort: UserSort | null;
  onSort: (field: UserSortField) => void;
  defaultVersionName: string | null;
  onSelectUser: (userId: string) => void;
}

const COLUMN_COUNT = 9;

function SortableHead({
  field,
  sort,
  onSort,
  children,
}: {
  field: UserSortField;
  sort: UserSort | null;
  onSort: (field: UserSortField) => void;
  children: ReactNode;
}) {
  const direction = sort?.field === field ? sort.direction : null;
  const Icon = direction === "asc" ? ArrowUp : direction === "desc" ? ArrowDown : ArrowUpDown;
  return (
    <TableHead aria-sort={direction === "asc" ? "ascending" : direction === "desc" ? "descending" : "none"}>
      <button
        type="button"
        onClick={() => onSort(field)}
        className="inline-flex items-center gap-1 rounded-sm hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {children}
        <Icon className="h-4 w-4" aria-hidden="true" />
      </button>
    </TableHead>
  );
}

/** The row's own controls: a click on them (or in their dialogs, which React bubbles here) selects nothing. */
function ControlCell({ children }: { children: ReactNode }) {
  const keepRowUnselected = (event: MouseEvent) => event.stopPropagation();
  return <TableCell onClick={keepRowUnselected}>{children}</TableCell>;
}

/** Every user, one row each; a click on a row (outside its controls) selects that user. */
export function UsersTable({ users, sort, onSort, defaultVersionName, onSelectUser }: UsersTableProps) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Login</TableHead>
          <SortableHead field="email" sort={sort} onSort={onSort}>
            E-Mail
          </SortableHead>
          <TableHead>Produktversion</TableHead>
          <SortableHead field="totalRequests" sort={sort} onSort={onSort}>
            API-Requests
          </SortableHead>
          <TableHead>Unique URLs</TableHead>
          <TableHead>Dynamic Contents</TableHead>
          <SortableHead field="requestLimit" sort={sort} onSort={onSort}>
            Request-Limit
          </SortableHead>
          <TableHead>Status</TableHead>
          <TableHead>Löschen</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.length === 0 ? (
          <TableEmptyRow colSpan={COLUMN_COUNT}>Keine Nutzer gefunden.</TableEmptyRow>
        ) : (
          users.map((user) => (
            <TableRow key={user.userId} className="cursor-pointer" onClick={() => onSelectUser(user.userId)}>
              <ControlCell>
                <ImpersonateButton user={user} />
              </ControlCell>
              <TableCell className="font-medium">
                <span className="inline-flex items-center gap-2">
                  {/* The keyboard's way to select the row; a mouse click anywhere on the row does the same. */}
                  <button
                    type="button"
                    className="rounded-sm text-left break-all hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    {user.email}
                  </button>
                  {!user.emailVerified && <UnverifiedMark />}
                </span>
              </TableCell>
              <TableCell>
                <ProductVersionBadge user={user} defaultVersionName={defaultVersionName} />
              </TableCell>
              <TableCell>{user.totalRequests}</TableCell>
              <TableCell>{user.uniqueUrlsCount}</TableCell>
              <TableCell>{user.dynamicContentCount}</TableCell>
              <ControlCell>
                {/* Keyed by the saved limit, so the field starts over from the server's value after each save. */}
                <RequestLimitInput key={String(user.requestLimit)} user={user} />
              </ControlCell>
              <ControlCell>
                <UserStatusSwitch user={user} />
              </ControlCell>
              <ControlCell>
                <DeleteUserButton user={user} />
              </ControlCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
