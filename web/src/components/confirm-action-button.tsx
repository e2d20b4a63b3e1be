import type { ReactElement, ReactNode } from "react";
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

export interface ConfirmActionButtonProps {
  /** The button that opens the dialog. */
  trigger: ReactElement;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** More for the dialog's header, below the description (e.g. a warning). */
  children?: ReactNode;
  onConfirm: () => void;
}

/** An action that cannot be undone, asked for first in an alert dialog. */
export function ConfirmActionButton({
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel,
  children,
  onConfirm,
}: ConfirmActionButtonProps) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
          {children}
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={onConfirm}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
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
