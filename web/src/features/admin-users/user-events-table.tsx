import type { Mapping } from "../../../../worker/contract/responses";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatGermanDayTime } from "@/lib/format-date";
import { DeleteMappingButton } from "./delete-mapping-button";
import { HtmlPreview } from "./html-preview";
import { MappingStatusBadge } from "./mapping-status-badge";

/** The events (mappings) of one website. */
export function UserEventsTable({ mappings }: { mappings: Mapping[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>HTML-Content</TableHead>
          <TableHead>Erstellt</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>API-Requests</TableHead>
          <TableHead>Content-Aufrufe</TableHead>
          <TableHead>Löschen</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {mappings.map((mapping) => (
          <TableRow key={mapping.id}>
            <TableCell className="max-w-[360px]">
              <HtmlPreview html={mapping.htmlContent} />
            </TableCell>
            <TableCell className="whitespace-nowrap">{formatGermanDayTime(mapping.createdAt)}</TableCell>
            <TableCell>
              <MappingStatusBadge publishedAt={mapping.publishedAt} />
            </TableCell>
            <TableCell>{mapping.totalRequests}</TableCell>
            <TableCell>{mapping.contentDeliveryCount}</TableCell>
            <TableCell>
              <DeleteMappingButton mappingId={mapping.id} url={mapping.url} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
