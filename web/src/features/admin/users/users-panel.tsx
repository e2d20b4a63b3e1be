import { useState } from "react";
import { Card, CardContent } from "@/components/ui/card";
import { COUNTS_LAG_NOTE_DE } from "@/lib/counts-note";
import { useAdminProductVersions } from "@/queries/admin/product-versions";
import { SearchBox } from "./search-box";
import { UsersDataTable } from "./users-data-table";

/** The 'Nutzerübersicht' tab: the email search, the users table and how fresh its numbers are. */
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
        <p className="text-xs text-muted-foreground">{COUNTS_LAG_NOTE_DE}</p>
      </CardContent>
    </Card>
  );
}
