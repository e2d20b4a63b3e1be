import { useState, type FormEvent } from "react";
import { loginRequestBody } from "../../../../worker/contract/schemas";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useRequestLoginCode } from "@/queries/login";

export interface LoginEmailFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  /** Called with the address the server says the code went to. */
  onCodeSent: (email: string) => void;
}

/** Asks for a login code; a server failure is toasted. */
export function LoginEmailForm({ email, onEmailChange, onCodeSent }: LoginEmailFormProps) {
  const [error, setError] = useState<string>();
  const requestCode = useRequestLoginCode();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = loginRequestBody.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    requestCode.mutate(parsed.data.email, { onSuccess: onCodeSent });
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
      <Button type="submit" className="w-full" disabled={requestCode.isPending}>
        {requestCode.isPending ? "Sending..." : "Send Code"}
      </Button>
    </form>
  );
}
