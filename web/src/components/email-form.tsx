import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

interface EmailFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  /** The validation message under the field. */
  error?: string;
  /** While the request runs: the button is disabled and shows `pendingLabel`. */
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  onSubmit: () => void;
}

/** One email field and a full-width submit button (login and registration); the caller checks and sends. */
export function EmailForm({
  email,
  onEmailChange,
  error,
  pending,
  submitLabel,
  pendingLabel,
  onSubmit,
}: EmailFormProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Email" error={error}>
        <Input
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => onEmailChange(e.target.value)}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}
