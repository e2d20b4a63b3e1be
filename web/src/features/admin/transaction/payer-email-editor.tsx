import { Pencil } from "lucide-react";
import { useState } from "react";
import { InlineEmailForm } from "@/components/inline-email-form";
import { Button } from "@/components/ui/button";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useUpdateTransactionEmail } from "@/queries/admin/billing";
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
  const { errors, check, clearErrors } = useSchemaCheck((schemas) => schemas.transactionEmailBody);
  const updateEmail = useUpdateTransactionEmail();

  function open() {
    setValue(current);
    clearErrors();
    setEditing(true);
  }

  async function submit() {
    const body = await check({ email: value });
    if (body) updateEmail.mutate({ transactionId, email: body.email }, { onSuccess: () => setEditing(false) });
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
    <InlineEmailForm
      label="Zahler-E-Mail"
      value={value}
      onValueChange={setValue}
      error={errors.email}
      onSubmit={submit}
      className="flex flex-wrap gap-2"
      inputClassName="max-w-sm"
      autoFocus
    >
      <Button type="submit" size="sm" disabled={updateEmail.isPending}>
        Save
      </Button>
      <Button type="button" size="sm" variant="outline" onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </InlineEmailForm>
  );
}
