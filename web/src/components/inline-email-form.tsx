import { useId, type FormEvent, type ReactNode } from "react";
import { FieldError } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

interface InlineEmailFormProps {
  /** The input's accessible name (there is no visible label). */
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The validation message under the row. */
  error?: string;
  onSubmit: () => void;
  /** Classes of the row that holds the input and the buttons. */
  className: string;
  inputClassName?: string;
  autoFocus?: boolean;
  /** The buttons after the input. */
  children: ReactNode;
}

/** An email input with its buttons in one row and the validation message beneath (the admin's email editors). */
export function InlineEmailForm({
  label,
  value,
  onValueChange,
  error,
  onSubmit,
  className,
  inputClassName,
  autoFocus,
  children,
}: InlineEmailFormProps) {
  const errorId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-1">
      <div className={className}>
        <Input
          type="email"
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          className={inputClassName}
          autoFocus={autoFocus}
        />
        {children}
      </div>
      <FieldError id={errorId} error={error} />
    </form>
  );
}
