/**
 * @module A button whose action is asked for first. The dialog loads when the button is first pressed, so that
 * the customer screens, which ask only before a key rotation, carry no dialog code at first (docs/spa.md
 * "Code splitting").
 */
import { cloneElement, lazy, Suspense, type ComponentProps, type ReactElement, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { useDialogOnDemand } from "@/hooks/use-dialog-on-demand";
import type { ConfirmQuestion } from "./confirm-dialog";

const ConfirmDialog = lazy(() => import("./confirm-dialog").then((m) => ({ default: m.ConfirmDialog })));

export interface ConfirmActionButtonProps extends ConfirmQuestion {
  /** The button that opens the dialog. */
  trigger: ReactElement<ComponentProps<"button">>;
}

/** An action that cannot be undone, asked for first in an alert dialog. */
export function ConfirmActionButton({ trigger, ...dialog }: ConfirmActionButtonProps) {
  const { open, setOpen, mounted, triggerRef, show, returnFocus } = useDialogOnDemand();
  return (
    <>
      {cloneElement(trigger, {
        ref: triggerRef,
        "aria-haspopup": "dialog",
        "aria-expanded": open,
        onClick: show,
      })}
      {mounted && (
        <Suspense fallback={null}>
          <ConfirmDialog {...dialog} open={open} onOpenChange={setOpen} onCloseAutoFocus={returnFocus} />
        </Suspense>
      )}
    </>
  );
}

/** The common case: a small outline button labelled `label` (disabled while `pending`) that asks first. */
export function ConfirmedOutlineButton({
  label,
  pending,
  ...dialog
}: Omit<ConfirmActionButtonProps, "trigger"> & { label: ReactNode; pending?: boolean }) {
  return (
    <ConfirmActionButton
      trigger={
        <Button type="button" variant="outline" size="sm" disabled={pending}>
          {label}
        </Button>
      }
      {...dialog}
    />
  );
}
