import { useState } from "react";
import type { AuditEvent } from "#contract/responses";
import { Loading } from "@/components/loading";
import { Pager } from "@/components/pager";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatGermanDayTime } from "@/lib/format-date";
import { useAuditEvents } from "@/queries/admin/audit";

const PAGE_SIZE = 20;

export const ACTION_LABELS: Record<AuditEvent["action"], string> = {
  impersonate: "Logged in as the user",
  "reveal-api-key": "Revealed the API key",
  "revoke-api-key": "Revoked the API key",
  "release-website": "Released a website",
};

/** Who did what to whom, and when: every impersonation and key revocation, newest first, paged by the server. */
export function AdminActivity() {
  const [offset, setOffset] = useState(0);
  const page = useAuditEvents(offset, PAGE_SIZE);

  return (
    <section aria-labelledby="admin-activity-title" className="space-y-4">
      <h2 id="admin-activity-title" className="text-2xl font-semibold">
        Admin Activity
      </h2>
      {page.isPending ? (
        <Loading />
      ) : page.data ? (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Date</TableHead>
                <TableHead>Admin</TableHead>
                <TableHead>Action</TableHead>
                <TableHead>User</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.data.events.length === 0 ? (
                <TableEmptyRow colSpan={4}>No admin activity yet.</TableEmptyRow>
              ) : (
                page.data.events.map((event) => (
                  <TableRow key={event.id}>
                    <TableCell>{formatGermanDayTime(event.createdAt)}</TableCell>
                    <TableCell className="break-all">{event.actorEmail}</TableCell>
                    <TableCell>{ACTION_LABELS[event.action]}</TableCell>
                    <TableCell className="break-all">{event.targetEmail}</TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
          <Pager offset={offset} limit={PAGE_SIZE} total={page.data.total} onOffsetChange={setOffset} />
        </>
      ) : (
        <p className="text-sm text-muted-foreground">The admin activity could not be loaded.</p>
      )}
    </section>
  );
}
