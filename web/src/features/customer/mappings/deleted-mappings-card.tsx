import { useState } from "react";
import { Pager } from "@/components/pager";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDay, formatDayTime } from "@/lib/format-date";
import { DELETED_PAGE_SIZE, useDeletedMappings, useRestoreDeletedMapping } from "@/queries/mappings";

/**
 * The customer's mappings deleted in the last 30 days, each restorable in one step, with its id, content and
 * state (docs/history.md). Shown only while there are any.
 */
export function DeletedMappingsCard() {
  const [offset, setOffset] = useState(0);
  const { data } = useDeletedMappings(offset);
  const restore = useRestoreDeletedMapping();
  if (!data || data.total === 0) return null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Recently deleted</CardTitle>
        <CardDescription>Deleted mappings can be restored for 30 days.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Table aria-label="Recently deleted mappings">
          <TableHeader>
            <TableRow>
              <TableHead>URL</TableHead>
              <TableHead>Deleted</TableHead>
              <TableHead>Restorable until</TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.rows.map((m) => (
              <TableRow key={m.id}>
                <TableCell className="max-w-xs truncate">{m.url}</TableCell>
                <TableCell>{formatDayTime(m.deletedAt)}</TableCell>
                <TableCell>{formatDay(m.restorableUntil)}</TableCell>
                <TableCell>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Restore ${m.url}`}
                    disabled={restore.isPending}
                    onClick={() => restore.mutate(m.id)}
                  >
                    Restore
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Pager offset={offset} limit={DELETED_PAGE_SIZE} total={data.total} onOffsetChange={setOffset} />
      </CardContent>
    </Card>
  );
}
