import { lazy, Suspense } from "react";
import type { Mapping } from "../../../../worker/contract/responses";
import { Button } from "@/components/ui/button";
import { useDialogOnDemand } from "@/hooks/use-dialog-on-demand";
import { useDeleteMapping } from "@/queries/mappings";

const MappingHistoryDialog = lazy(() =>
  import("./mapping-history-dialog").then((m) => ({ default: m.MappingHistoryDialog })),
);
const MappingPreviewDialog = lazy(() =>
  import("./mapping-preview-dialog").then((m) => ({ default: m.MappingPreviewDialog })),
);

/**
 * A row's actions: Preview (a link that shows it on its page: docs/publishing.md), History (its versions, and
 * restoring one: docs/history.md) and Remove (SPEC.md §2). The API can
 * also publish and unpublish a mapping, but SPEC.md §4 shows no UI for that, so there is none here.
 */
export function MappingRowActions({ mapping }: { mapping: Mapping }) {
  const deleteMapping = useDeleteMapping();
  const history = useDialogOnDemand();
  const preview = useDialogOnDemand();

  return (
    <div className="flex gap-2">
      <Button ref={preview.triggerRef} variant="outline" size="sm" aria-haspopup="dialog" onClick={preview.show}>
        Preview
      </Button>
      <Button ref={history.triggerRef} variant="outline" size="sm" aria-haspopup="dialog" onClick={history.show}>
        History
      </Button>
      <Button
        variant="destructive"
        size="sm"
        disabled={deleteMapping.isPending}
        onClick={() => deleteMapping.mutate(mapping.id)}
      >
        Remove
      </Button>
      {preview.mounted && (
        <Suspense fallback={null}>
          <MappingPreviewDialog
            mapping={mapping}
            open={preview.open}
            onOpenChange={preview.setOpen}
            onCloseAutoFocus={preview.returnFocus}
          />
        </Suspense>
      )}
      {history.mounted && (
        <Suspense fallback={null}>
          <MappingHistoryDialog
            mapping={mapping}
            open={history.open}
            onOpenChange={history.setOpen}
            onCloseAutoFocus={history.returnFocus}
          />
        </Suspense>
      )}
    </div>
  );
}
