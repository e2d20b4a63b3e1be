import { lazy, Suspense, type ComponentType } from "react";
import type { Mapping } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { useDialogOnDemand } from "@/hooks/use-dialog-on-demand";
import { olderMappings, useDeleteMapping, useSetMappingStatus } from "@/queries/mappings";
import { EXPERIMENT_TEXT } from "./experiment-text";

const ExperimentResultsDialog = lazy(() =>
  import("./experiment-results-dialog").then((m) => ({ default: m.ExperimentResultsDialog })),
);
const AudienceResultsDialog = lazy(() =>
  import("./experiment-results-dialog").then((m) => ({ default: m.AudienceResultsDialog })),
);
const MappingEditDialog = lazy(() => import("./mapping-edit-dialog").then((m) => ({ default: m.MappingEditDialog })));
const MappingHistoryDialog = lazy(() =>
  import("./mapping-history-dialog").then((m) => ({ default: m.MappingHistoryDialog })),
);
const MappingPreviewDialog = lazy(() =>
  import("./mapping-preview-dialog").then((m) => ({ default: m.MappingPreviewDialog })),
);
const MappingRemoveDialog = lazy(() =>
  import("./mapping-remove-dialog").then((m) => ({ default: m.MappingRemoveDialog })),
);

interface RowDialogProps {
  mapping: Mapping;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}

/**
 * A row's actions: Edit (every field, issue 25), Publish or Unpublish, Preview (a link that shows it on its page:
 * docs/publishing.md), History (its versions, and restoring one: docs/history.md), on a mapping running an
 * experiment its results (docs/experiments.md), on a mapping with a holdout its audience results
 * (docs/audiences.md, "Holdout"), and Remove (SPEC.md §2), which on a URL with older mappings asks
 * whether to remove only the newest or all of them.
 */
export function MappingRowActions({ mapping }: { mapping: Mapping }) {
  const deleteMapping = useDeleteMapping();
  const setStatus = useSetMappingStatus();
  const published = mapping.publishedAt !== null;
  const removeAsks = olderMappings(mapping) > 0;
  const edit = useDialogOnDemand();
  const history = useDialogOnDemand();
  const preview = useDialogOnDemand();
  const experiment = useDialogOnDemand();
  const audienceResults = useDialogOnDemand();
  const remove = useDialogOnDemand();

  return (
    <div className="flex flex-wrap gap-2">
      <DialogButton label="Edit" control={edit} Dialog={MappingEditDialog} mapping={mapping} />
      <Button
        variant="outline"
        size="sm"
        disabled={setStatus.isPending}
        onClick={() => setStatus.mutate({ mapping, published: !published })}
      >
        {published ? "Unpublish" : "Publish"}
      </Button>
      <DialogButton label="Preview" control={preview} Dialog={MappingPreviewDialog} mapping={mapping} />
      <DialogButton label="History" control={history} Dialog={MappingHistoryDialog} mapping={mapping} />
      {mapping.variants && (
        <DialogButton
          label={EXPERIMENT_TEXT.en.results}
          control={experiment}
          Dialog={ExperimentResultsDialog}
          mapping={mapping}
        />
      )}
      {mapping.holdout ? (
        <DialogButton
          label={EXPERIMENT_TEXT.en.audienceResults}
          control={audienceResults}
          Dialog={AudienceResultsDialog}
          mapping={mapping}
        />
      ) : null}
      {removeAsks ? (
        <DialogButton
          label="Remove"
          variant="destructive"
          control={remove}
          Dialog={MappingRemoveDialog}
          mapping={mapping}
        />
      ) : (
        <Button
          variant="destructive"
          size="sm"
          disabled={deleteMapping.isPending}
          onClick={() => deleteMapping.mutate({ mapping })}
        >
          Remove
        </Button>
      )}
    </div>
  );
}

/** A row button that opens its dialog, whose code loads on the first press. */
function DialogButton({
  label,
  variant = "outline",
  control,
  Dialog,
  mapping,
}: {
  label: string;
  variant?: "outline" | "destructive";
  control: ReturnType<typeof useDialogOnDemand>;
  Dialog: ComponentType<RowDialogProps>;
  mapping: Mapping;
}) {
  return (
    <>
      <Button ref={control.triggerRef} variant={variant} size="sm" aria-haspopup="dialog" onClick={control.show}>
        {label}
      </Button>
      {control.mounted && (
        <Suspense fallback={null}>
          <Dialog
            mapping={mapping}
            open={control.open}
            onOpenChange={control.setOpen}
            onCloseAutoFocus={control.returnFocus}
          />
        </Suspense>
      )}
    </>
  );
}
