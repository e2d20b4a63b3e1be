import type { AdminUserDetail } from "#contract/responses";
import { PagedRows } from "@/components/paged-rows";
import { Card, CardContent } from "@/components/ui/card";
import { usePage } from "@/hooks/use-page";
import { useMappingGroups } from "@/queries/admin/users";
import { MappingGroupSection } from "./mapping-group-section";
import { UserWebsitesSection } from "./user-websites-section";

/**
 * The user's claimed domains, then their mappings grouped by URL (ignoring case and http/https) on the server, a
 * page of groups at a time, each opening to its events.
 */
export function WebsitesEventsTab({ user }: { user: AdminUserDetail }) {
  return (
    <div className="space-y-6">
      <UserWebsitesSection userId={user.userId} />
      <MappingGroups user={user} />
    </div>
  );
}

function MappingGroups({ user }: { user: AdminUserDetail }) {
  const page = usePage(user.userId);
  const groups = useMappingGroups(user.userId, page.offset);
  return (
    <PagedRows query={groups} page={page}>
      {(rows) =>
        rows.length === 0 ? (
          <Card>
            <CardContent className="py-8 text-center text-muted-foreground">
              Keine Webseiten oder Events vorhanden.
            </CardContent>
          </Card>
        ) : (
          <div className="space-y-4">
            {rows.map((group) => (
              <MappingGroupSection key={group.key} userId={user.userId} group={group} />
            ))}
          </div>
        )
      }
    </PagedRows>
  );
}
