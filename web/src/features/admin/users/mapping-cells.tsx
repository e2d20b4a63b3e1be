import type { Mapping } from "#contract/responses";
import { TableCell, TableHead } from "@/components/ui/table";
import { formatGermanDayTime } from "@/lib/format-date";
import { DeleteMappingButton } from "./delete-mapping-button";
import { HtmlPreview } from "./html-preview";
import { MappingStatusBadge } from "./mapping-status-badge";

/** The heads of the columns that `MappingCells` fills. */
export function MappingHeads() {
  return (
    <>
      <TableHead>HTML-Content</TableHead>
      <TableHead>Erstellt</TableHead>
      <TableHead>Status</TableHead>
    </>
  );
}

/** What both events tables show of a mapping: its HTML as text (in a cell `htmlClassName` sizes), date and status. */
export function MappingCells({ mapping, htmlClassName }: { mapping: Mapping; htmlClassName: string }) {
  return (
    <>
      <TableCell className={htmlClassName}>
        <HtmlPreview html={mapping.htmlContent} />
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatGermanDayTime(mapping.createdAt)}</TableCell>
      <TableCell>
        <MappingStatusBadge publishedAt={mapping.publishedAt} />
      </TableCell>
    </>
  );
}

/** The last cell of both events tables: 'Löschen' (no confirmation). */
export function DeleteMappingCell({ mapping }: { mapping: Mapping }) {
  return (
    <TableCell>
      <DeleteMappingButton mapping={mapping} />
    </TableCell>
  );
}
