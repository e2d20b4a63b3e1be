import { useState } from "react";
import { Card, CardContent } from "@/components/ui/card";
import { useAdminProductVersions } from "@/queries/admin/product-versions";
import { SearchBox } from "./search-box";
import { UsersDataTable } from "./users-data-table";

/** The 'Nutzerübersicht' tab: the email search and the users table. */
export function UsersPanel({ onSelectUser }: { onSelectUser: (userId: string) => void }) {
  const [searchTerm, setSearchTerm] = useState("");
  // Users without a version of their own are shown with the default version's name.
  const versions = useAdminProductVersions();
  const defaultVersionName = versions.data?.find((version) => version.isDefault)?.name ?? null;

  return (
    <Card>
      <CardContent className="space-y-4 pt-6">
        <SearchBox value={searchTerm} onChange={setSearchTerm} placeholder="Suche nach Nutzern..." />
        <UsersDataTable searchTerm={searchTerm} defaultVersionName={defaultVersionName} onSelectUser={onSelectUser} />
      </CardContent>
    </Card>
  );
}
