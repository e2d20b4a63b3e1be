import type { AdminMapping } from "#contract/responses";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DeleteMappingCell, MappingCells, MappingHeads } from "./mapping-cells";

/** Every customer's events (mappings) with their owner's email. */
export function EventsTable({ mappings }: { mappings: AdminMapping[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>URL</TableHead>
          <MappingHeads />
          <TableHead>Nutzer-E-Mail</TableHead>
          <TableHead>Löschen</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {mappings.length === 0 ? (
          <TableEmptyRow colSpan={6}>Keine Events gefunden.</TableEmptyRow>
        ) : (
          mappings.map((mapping) => (
            <TableRow key={mapping.id}>
              <TableCell className="max-w-[240px] font-medium break-all">{mapping.url}</TableCell>
              <MappingCells mapping={mapping} htmlClassName="max-w-[320px]" />
              <TableCell className="break-all">{mapping.userEmail}</TableCell>
              <DeleteMappingCell mapping={mapping} />
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
