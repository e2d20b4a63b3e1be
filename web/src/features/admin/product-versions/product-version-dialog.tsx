import type { ProductVersion } from "#contract/responses";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { ProductVersionForm } from "./product-version-form";

interface ProductVersionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The version to edit, or null for 'Neue Version'. */
  version: ProductVersion | null;
}

/** The create/edit dialog; the form mounts afresh each time it opens, so it starts from `version`. */
export function ProductVersionDialog({ open, onOpenChange, version }: ProductVersionDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{version ? "Produktversion bearbeiten" : "Neue Produktversion"}</DialogTitle>
          <DialogDescription>Leere Limits bedeuten unbegrenzt.</DialogDescription>
        </DialogHeader>
        <ProductVersionForm version={version} onSaved={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
