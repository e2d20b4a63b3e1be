import { Trash2 } from "lucide-react";
import type { ProductVersion } from "#contract/responses";
import { ConfirmDeleteButton } from "@/components/confirm-delete-button";
import { Button } from "@/components/ui/button";
import { useDeleteProductVersion } from "@/queries/admin/product-versions";

/** The Delete action: asks 'Sind Sie sicher?' (with an extra warning for the default version), then deletes. */
export function DeleteProductVersionButton({ version }: { version: ProductVersion }) {
  const deleteVersion = useDeleteProductVersion();

  return (
    <ConfirmDeleteButton
      trigger={
        <Button variant="ghost" size="icon" aria-label={`Delete ${version.name}`} disabled={deleteVersion.isPending}>
          <Trash2 className="text-destructive" aria-hidden="true" />
        </Button>
      }
      consequence="Die Produktversion wird permanent gelöscht."
      onConfirm={() => deleteVersion.mutate(version.id)}
    >
      {version.isDefault && (
        <p className="text-sm font-medium text-destructive">
          Achtung: Dies ist die Standard-Version. Das Löschen kann zu Problemen führen.
        </p>
      )}
    </ConfirmDeleteButton>
  );
}
