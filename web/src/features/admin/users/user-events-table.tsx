import type { Mapping } from "#contract/responses";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DeleteMappingCell, MappingCells, MappingHeads } from "./mapping-cells";

/** The events (mappings) of one website. */
export function UserEventsTable({ mappings }: { mappings: Mapping[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <MappingHeads />
          <TableHead>API-Requests</TableHead>
          <TableHead>Content-Aufrufe</TableHead>
          <TableHead>Löschen</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {mappings.map((mapping) => (
          <TableRow key={mapping.id}>
            <MappingCells mapping={mapping} htmlClassName="max-w-[360px]" />
            <TableCell>{mapping.totalRequests}</TableCell>
            <TableCell>{mapping.contentDeliveryCount}</TableCell>
            <DeleteMappingCell mapping={mapping} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
