import { useState } from "react";
import type { RegistrationPage } from "#contract/schemas";
import { EmailForm } from "@/components/email-form";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useRegister } from "@/queries/registration";

interface RegisterEmailFormProps {
  /** The page the mailed link returns to; page A's body names none (SPEC.md §7's `{email}`). */
  page?: RegistrationPage;
  submitLabel: string;
  pendingLabel: string;
  /** Called with the address the verification mail went to. */
  onRegistered: (email: string) => void;
}

/** The email field of both registration pages; a server failure is toasted. */
export function RegisterEmailForm({ page, submitLabel, pendingLabel, onRegistered }: RegisterEmailFormProps) {
  const [email, setEmail] = useState("");
  const { errors, check } = useSchemaCheck((schemas) => schemas.registerBody);
  const register = useRegister();

  async function submit() {
    const body = await check({ email, page });
    if (body) register.mutate(body, { onSuccess: (data) => onRegistered(data.email) });
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
