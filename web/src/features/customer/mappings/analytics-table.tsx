import type { AnalyticsRow } from "#contract/responses";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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
          <TableEmptyRow colSpan={3}>No analytics data available yet.</TableEmptyRow>
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
