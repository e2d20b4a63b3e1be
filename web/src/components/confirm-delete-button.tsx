import type { ReactNode } from "react";
import { ConfirmActionButton, type ConfirmActionButtonProps } from "./confirm-action-button";

interface ConfirmDeleteButtonProps {
  /** The button that opens the dialog. */
  trigger: ConfirmActionButtonProps["trigger"];
  /** What is lost, after 'Diese Aktion kann nicht rückgängig gemacht werden.' */
  consequence: ReactNode;
  /** More for the dialog's header, below the description (e.g. a warning). */
  children?: ReactNode;
  onConfirm: () => void;
}

/** A delete action that asks first: 'Sind Sie sicher?' with 'Abbrechen' / 'Löschen'. */
export function ConfirmDeleteButton({ trigger, consequence, children, onConfirm }: ConfirmDeleteButtonProps) {
  return (
    <ConfirmActionButton
      trigger={trigger}
      title="Sind Sie sicher?"
      description={<>Diese Aktion kann nicht rückgängig gemacht werden. {consequence}</>}
      confirmLabel="Löschen"
      cancelLabel="Abbrechen"
      onConfirm={onConfirm}
    >
      {children}
    </ConfirmActionButton>
  );
}
