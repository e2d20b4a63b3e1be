import { useState } from "react";
import { InlineEmailForm } from "@/components/inline-email-form";
import { Button } from "@/components/ui/button";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useUpdateUserEmail } from "@/queries/admin/users";

/** The user's email, editable; checked with the server's schema before it is sent. */
export function UserEmailForm({ userId, email }: { userId: string; email: string }) {
  const [value, setValue] = useState(email);
  const { errors, check } = useSchemaCheck((schemas) => schemas.userEmailBody);
  const updateEmail = useUpdateUserEmail();

  async function submit() {
    const body = await check({ email: value });
    if (body) updateEmail.mutate({ userId, email: body.email });
  }

  return (
    <InlineEmailForm
      label="E-Mail"
      value={value}
      onValueChange={setValue}
      error={errors.email}
      onSubmit={submit}
      className="flex max-w-lg gap-2"
    >
      <Button type="submit" disabled={updateEmail.isPending || value.trim() === email}>
        Speichern
      </Button>
    </InlineEmailForm>
  );
}
