import { useState } from "react";
import { registerBody } from "../../../../worker/contract/schemas";
import { EmailForm } from "@/components/email-form";
import { useSchemaCheck } from "@/hooks/use-schema-check";
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
  const { errors, check } = useSchemaCheck(registerBody);
  const register = useRegister();

  function submit() {
    const body = check({ email });
    if (body) register.mutate(body.email, { onSuccess: (data) => onRegistered(data.email) });
  }

  return (
    <EmailForm
      email={email}
      onEmailChange={setEmail}
      error={errors.email}
      pending={register.isPending}
      submitLabel={submitLabel}
      pendingLabel={pendingLabel}
      onSubmit={submit}
    />
  );
}
