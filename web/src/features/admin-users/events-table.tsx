import type { AdminMapping } from "../../../../worker/contract/responses";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatGermanDayTime } from "@/lib/format-date";
import { DeleteMappingButton } from "./delete-mapping-button";
import { HtmlPreview } from "./html-preview";
import { MappingStatusBadge } from "./mapping-status-badge";

/** Every customer's events (mappings) with their owner's email. */
export function EventsTable({ mappings }: { mappings: AdminMapping[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>URL</TableHead>
          <TableHead>HTML-Content</TableHead>
          <TableHead>Erstellt</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Nutzer-E-Mail</TableHead>
          <TableHead>Löschen</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {mappings.length === 0 ? (
          <TableRow>
            <TableCell colSpan={6} className="py-8 text-center text-muted-foreground">
              Keine Events gefunden.
            </TableCell>
          </TableRow>
        ) : (
          mappings.map((mapping) => (
            <TableRow key={mapping.id}>
              <TableCell className="max-w-[240px] font-medium break-all">{mapping.url}</TableCell>
              <TableCell className="max-w-[320px]">
                <HtmlPreview html={mapping.htmlContent} />
              </TableCell>
              <TableCell className="whitespace-nowrap">{formatGermanDayTime(mapping.createdAt)}</TableCell>
              <TableCell>
                <MappingStatusBadge publishedAt={mapping.publishedAt} />
              </TableCell>
              <TableCell className="break-all">{mapping.userEmail}</TableCell>
              <TableCell>
                <DeleteMappingButton mappingId={mapping.id} url={mapping.url} />
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
