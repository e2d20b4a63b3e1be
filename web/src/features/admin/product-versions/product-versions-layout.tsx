import { Plus } from "lucide-react";
import { useState } from "react";
import type { ProductVersion } from "#contract/responses";
import { PageContainer } from "@/components/layout/page-container";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ProductVersionDialog } from "./product-version-dialog";
import { ProductVersionsDataTable } from "./product-versions-data-table";

export function ProductVersionsLayout() {
  const [dialogOpen, setDialogOpen] = useState(false);
  // Kept while the dialog closes, so its title does not switch on the way out.
  const [editing, setEditing] = useState<ProductVersion | null>(null);

  function openDialog(version: ProductVersion | null) {
    setEditing(version);
    setDialogOpen(true);
  }

  return (
    <PageContainer className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-3xl font-bold">Product Versions</h1>
        <Button onClick={() => openDialog(null)}>
          <Plus aria-hidden="true" />
          Neue Version
        </Button>
      </div>
      <Card>
        <CardContent className="p-0">
          <ProductVersionsDataTable onEdit={openDialog} />
        </CardContent>
      </Card>
      <ProductVersionDialog open={dialogOpen} onOpenChange={setDialogOpen} version={editing} />
    </PageContainer>
  );
}
