import { Trash2 } from "lucide-react";
import type { ProductVersion } from "../../../../worker/contract/responses";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button, buttonVariants } from "@/components/ui/button";
import { useDeleteProductVersion } from "@/queries/admin-product-versions";

/** The Delete action: asks 'Sind Sie sicher?' (with an extra warning for the default version), then deletes. */
export function DeleteProductVersionButton({ version }: { version: ProductVersion }) {
  const deleteVersion = useDeleteProductVersion();

  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Delete ${version.name}`} disabled={deleteVersion.isPending}>
          <Trash2 className="text-destructive" aria-hidden="true" />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Sind Sie sicher?</AlertDialogTitle>
          <AlertDialogDescription>
            Diese Aktion kann nicht rückgängig gemacht werden. Die Produktversion wird permanent gelöscht.
          </AlertDialogDescription>
          {version.isDefault && (
            <p className="text-sm font-medium text-destructive">
              Achtung: Dies ist die Standard-Version. Das Löschen kann zu Problemen führen.
            </p>
          )}
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Abbrechen</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: "destructive" })}
            onClick={() => deleteVersion.mutate(version.id)}
          >
            Löschen
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
