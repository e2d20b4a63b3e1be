import { ChevronDown, ChevronRight } from "lucide-react";
import { useId, useState } from "react";
import type { Mapping } from "../../../../worker/contract/responses";
import { Card, CardContent } from "@/components/ui/card";
import type { MappingGroup } from "@/lib/group-mappings";
import { UserEventsTable } from "./user-events-table";

/** One website: its URL, how many events it has and their summed counts; opens to the events table. */
export function MappingGroupSection({ group }: { group: MappingGroup<Mapping> }) {
  const [open, setOpen] = useState(false);
  const contentId = useId();
  const url = group.mappings[0]!.url;
  const count = group.mappings.length;
  const Chevron = open ? ChevronDown : ChevronRight;

  return (
    <Card role="region" aria-label={url}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={contentId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full flex-wrap items-center gap-x-6 gap-y-2 rounded-lg p-4 text-left hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <span className="flex min-w-0 flex-1 items-center gap-2 font-medium break-all">
          <Chevron className="h-4 w-4 shrink-0" aria-hidden="true" />
          {url}
        </span>
        <span className="text-sm">{count === 1 ? "1 Event" : `${count} Events`}</span>
        <span className="text-sm">API-Requests: {group.totalRequests}</span>
        <span className="text-sm">Content-Aufrufe: {group.contentDeliveryCount}</span>
      </button>
      {open && (
        <CardContent id={contentId}>
          <UserEventsTable mappings={group.mappings} />
        </CardContent>
      )}
    </Card>
  );
}
