import { useState, type FormEvent } from "react";
import { userEmailBody } from "../../../../worker/contract/schemas";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useUpdateUserEmail } from "@/queries/admin-users";

/** The user's email, editable; checked with the server's schema before it is sent. */
export function UserEmailForm({ userId, email }: { userId: string; email: string }) {
  const [value, setValue] = useState(email);
  const [error, setError] = useState<string | null>(null);
  const updateEmail = useUpdateUserEmail();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = userEmailBody.safeParse({ email: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Invalid input");
      return;
    }
    setError(null);
    updateEmail.mutate({ userId, email: parsed.data.email });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-1">
      <div className="flex max-w-lg gap-2">
        <Input
          type="email"
          aria-label="E-Mail"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${userId}-email-error` : undefined}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <Button type="submit" disabled={updateEmail.isPending || value.trim() === email}>
          Speichern
        </Button>
      </div>
      {error && (
        <p id={`${userId}-email-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </form>
  );
}
