import { Pencil } from "lucide-react";
import type { ProductVersion } from "#contract/responses";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DeleteProductVersionButton } from "./delete-product-version-button";
import { formatVersionLimit, formatVersionPrice } from "./format-version";

interface ProductVersionsTableProps {
  versions: ProductVersion[];
  onEdit: (version: ProductVersion) => void;
}

const COLUMN_COUNT = 9;

/** A plan without a PayPal plan id cannot be bought: what its card tells customers instead. */
function NotForSale() {
  return (
    <span className="font-sans text-muted-foreground">
      Nicht kaufbar: Kunden sehen „Contact us to switch to this plan“
    </span>
  );
}

export function ProductVersionsTable({ versions, onEdit }: ProductVersionsTableProps) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Description</TableHead>
          <TableHead>Events Limit</TableHead>
          <TableHead>Websites Limit</TableHead>
          <TableHead>Dynamic Content Limit</TableHead>
          <TableHead>Price</TableHead>
          <TableHead>PayPal Plan ID</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {versions.length === 0 ? (
          <TableEmptyRow colSpan={COLUMN_COUNT}>No product versions found.</TableEmptyRow>
        ) : (
          versions.map((version) => (
            <TableRow key={version.id}>
              <TableCell className="font-medium">{version.name}</TableCell>
              <TableCell className="max-w-[280px] text-muted-foreground">{version.description}</TableCell>
              <TableCell>{formatVersionLimit(version.eventsLimit)}</TableCell>
              <TableCell>{formatVersionLimit(version.websitesLimit)}</TableCell>
              <TableCell>{formatVersionLimit(version.dynamicContentLimit)}</TableCell>
              <TableCell className="whitespace-nowrap">{formatVersionPrice(version.price)}</TableCell>
              <TableCell className="font-mono text-xs break-all">
                {version.paypalPlanId ?? (!version.isDefault && <NotForSale />)}
              </TableCell>
              <TableCell>{version.isDefault && <Badge>Standard</Badge>}</TableCell>
              <TableCell>
                <div className="flex justify-end gap-1">
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Edit ${version.name}`}
                    onClick={() => onEdit(version)}
                  >
                    <Pencil aria-hidden="true" />
                  </Button>
                  <DeleteProductVersionButton version={version} />
                </div>
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
