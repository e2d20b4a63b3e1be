import { ChevronDown, ChevronRight } from "lucide-react";
import { useId, useState } from "react";
import type { MappingGroup } from "#contract/responses";
import { PagedRows } from "@/components/paged-rows";
import { Card, CardContent } from "@/components/ui/card";
import { usePage } from "@/hooks/use-page";
import { useGroupEvents } from "@/queries/admin/users";
import { UserEventsTable } from "./user-events-table";

/** The events of one website, a page at a time, asked for when the website is opened. */
function GroupEvents({ userId, group }: { userId: string; group: MappingGroup }) {
  const page = usePage(group.key);
  const events = useGroupEvents(userId, group.key, page.offset);
  return (
    <PagedRows query={events} page={page}>
      {(rows) => <UserEventsTable mappings={rows} />}
    </PagedRows>
  );
}

/** One website: its URL, how many events it has and their summed counts; opens to the events table. */
export function MappingGroupSection({ userId, group }: { userId: string; group: MappingGroup }) {
  const [open, setOpen] = useState(false);
  const contentId = useId();
  const Chevron = open ? ChevronDown : ChevronRight;

  return (
    <Card role="region" aria-label={group.url}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={contentId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full flex-wrap items-center gap-x-6 gap-y-2 rounded-lg p-4 text-left hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <span className="flex min-w-0 flex-1 items-center gap-2 font-medium break-all">
          <Chevron className="h-4 w-4 shrink-0" aria-hidden="true" />
          {group.url}
        </span>
        <span className="text-sm">{group.events === 1 ? "1 Event" : `${group.events} Events`}</span>
        <span className="text-sm">API-Requests: {group.totalRequests}</span>
        <span className="text-sm">Content-Aufrufe: {group.contentDeliveryCount}</span>
      </button>
      {open && (
        <CardContent id={contentId}>
          <GroupEvents userId={userId} group={group} />
        </CardContent>
      )}
    </Card>
  );
}
