import { useId, type ReactElement, cloneElement } from "react";
import { Label } from "@/components/ui/label";

interface FormFieldProps {
  label: string;
  error?: string;
  /** The control; it receives the id, aria-invalid and aria-describedby that tie it to label and error. */
  children: ReactElement<{ id?: string; "aria-invalid"?: boolean; "aria-describedby"?: string }>;
}

/** A label, one control and its validation message. */
function FormField({ label, error, children }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      {cloneElement(children, {
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? errorId : undefined,
      })}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** A control's validation message (nothing without one); the control names `id` in its aria-describedby. */
function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="text-sm font-medium text-destructive">
      {error}
    </p>
  );
}

export { FieldError, FormField };
