import { Pencil } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { transactionEmailBody } from "../../../../worker/contract/schemas";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useUpdateTransactionEmail } from "@/queries/admin-billing";
import { EMPTY_VALUE } from "./format-detail-value";

interface PayerEmailEditorProps {
  transactionId: string;
  email: string | number | boolean | null;
}

/**
 * The payer email with 'Edit', which opens an inline input with 'Save' and 'Cancel'. The value is checked
 * with the server's schema first; success and failure are toasted by the mutation, success closes the input.
 */
export function PayerEmailEditor({ transactionId, email }: PayerEmailEditorProps) {
  const current = typeof email === "string" ? email : "";
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const updateEmail = useUpdateTransactionEmail();
  const errorId = useId();

  function open() {
    setValue(current);
    setError(null);
    setEditing(true);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = transactionEmailBody.safeParse({ email: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Invalid input");
      return;
    }
    setError(null);
    updateEmail.mutate({ transactionId, email: parsed.data.email }, { onSuccess: () => setEditing(false) });
  }

  if (!editing) {
    return (
      <span className="inline-flex flex-wrap items-center gap-2">
        <span>{current || EMPTY_VALUE}</span>
        <Button type="button" variant="outline" size="sm" onClick={open}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
      </span>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-1">
      <div className="flex flex-wrap gap-2">
        <Input
          type="email"
          aria-label="Zahler-E-Mail"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          className="max-w-sm"
          autoFocus
        />
        <Button type="submit" size="sm" disabled={updateEmail.isPending}>
          Save
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </form>
  );
}
