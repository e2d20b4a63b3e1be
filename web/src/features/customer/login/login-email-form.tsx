import { EmailForm } from "@/components/email-form";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useRequestLoginCode } from "@/queries/login";

export interface LoginEmailFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  /** Called with the address the server says the code went to. */
  onCodeSent: (email: string) => void;
}

/** Asks for a login code; a server failure is toasted. */
export function LoginEmailForm({ email, onEmailChange, onCodeSent }: LoginEmailFormProps) {
  const { errors, check } = useSchemaCheck((schemas) => schemas.loginRequestBody);
  const requestCode = useRequestLoginCode();

  async function submit() {
    const body = await check({ email });
    if (body) requestCode.mutate(body.email, { onSuccess: onCodeSent });
  }

  return (
    <EmailForm
      email={email}
      onEmailChange={onEmailChange}
      error={errors.email}
      pending={requestCode.isPending}
      submitLabel="Send Code"
      pendingLabel="Sending..."
      onSubmit={submit}
    />
  );
}
