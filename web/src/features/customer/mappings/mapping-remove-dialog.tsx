/**
 * @module Remove on a URL that has older mappings (the dashboard shows only a URL's newest): removing the newest
 * alone puts an older published one back on the pages, so the customer chooses that or removing them all. A chunk
 * of its own, loaded when such a Remove is first pressed.
 */
import type { Mapping } from "#contract/responses";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { olderMappings, useDeleteMapping } from "@/queries/mappings";

interface MappingRemoveDialogProps {
  mapping: Mapping;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}

const mappingsText = (n: number) => `${n.toLocaleString("en-US")} older mapping${n === 1 ? "" : "s"}`;

export function MappingRemoveDialog({ mapping, open, onOpenChange, onCloseAutoFocus }: MappingRemoveDialogProps) {
  const remove = useDeleteMapping();
  const older = olderMappings(mapping);
  const removeAnd = (wholeUrl: boolean) =>
    remove.mutate({ mapping, wholeUrl }, { onSuccess: () => onOpenChange(false) });

  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>This URL has {mappingsText(older)}</AlertDialogTitle>
          <AlertDialogDescription>
            Removing only the newest puts the newest published older mapping of{" "}
            <span className="break-all">{mapping.url}</span> back on your pages. Removed mappings can be restored for 30
            days.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter className="gap-2">
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button variant="outline" disabled={remove.isPending} onClick={() => removeAnd(false)}>
            Remove only the newest
          </Button>
          <Button variant="destructive" disabled={remove.isPending} onClick={() => removeAnd(true)}>
            Remove all {(older + 1).toLocaleString("en-US")}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
