import type { AnalyticsRow } from "../../../../worker/contract/responses";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDayTime } from "@/lib/format-date";

export function AnalyticsTable({ rows }: { rows: AnalyticsRow[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>URL</TableHead>
          <TableHead>Total Hits</TableHead>
          <TableHead>Last Accessed</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.length === 0 ? (
          <TableRow>
            <TableCell colSpan={3} className="py-8 text-center text-muted-foreground">
              No analytics data available yet.
            </TableCell>
          </TableRow>
        ) : (
          rows.map((row) => (
            <TableRow key={row.url}>
              <TableCell className="font-medium break-all">{row.url}</TableCell>
              <TableCell>{row.totalHits}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDayTime(row.lastAccessed)}</TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
