import type { AdminUserDetail } from "../../../../worker/contract/responses";
import { Card, CardContent } from "@/components/ui/card";
import { groupMappingsByUrl, urlWithoutScheme } from "@/lib/group-mappings";
import { MappingGroupSection } from "./mapping-group-section";

/** The user's mappings grouped by URL (ignoring case and http/https), each group opening to its events. */
export function WebsitesEventsTab({ user }: { user: AdminUserDetail }) {
  const groups = groupMappingsByUrl(user.mappings, urlWithoutScheme);

  if (groups.length === 0) {
    return (
      <Card>
        <CardContent className="py-8 text-center text-muted-foreground">
          Keine Webseiten oder Events vorhanden.
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="space-y-4">
      {groups.map((group) => (
        <MappingGroupSection key={group.key} group={group} />
      ))}
    </div>
  );
}
