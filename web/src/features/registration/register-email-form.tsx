import { useState, type FormEvent } from "react";
import { registerBody } from "../../../../worker/contract/schemas";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useRegister } from "@/queries/registration";

interface RegisterEmailFormProps {
  submitLabel: string;
  pendingLabel: string;
  /** Called with the address the verification mail went to. */
  onRegistered: (email: string) => void;
}

/** The email field of both registration pages; a server failure is toasted. */
export function RegisterEmailForm({ submitLabel, pendingLabel, onRegistered }: RegisterEmailFormProps) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string>();
  const register = useRegister();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = registerBody.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    register.mutate(parsed.data.email, { onSuccess: (data) => onRegistered(data.email) });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Email" error={error}>
        <Input
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={register.isPending}>
        {register.isPending ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}
