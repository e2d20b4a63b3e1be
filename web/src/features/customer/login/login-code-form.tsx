import { useState, type FormEvent } from "react";
import { LOGIN_CODE_DIGITS } from "#contract/input-caps";
import { useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useVerifyLoginCode } from "@/queries/login";

/** The emailed code; on success the key is stored and the customer dashboard opens. */
export function LoginCodeForm({ onUseDifferentEmail }: { onUseDifferentEmail: () => void }) {
  const [code, setCode] = useState("");
  const { errors, check } = useSchemaCheck((schemas) => schemas.loginVerifyBody);
  const verify = useVerifyLoginCode();
  const navigate = useNavigate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = await check({ code });
    if (body) verify.mutate(body.code, { onSuccess: () => navigate("/user-dashboard") });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Code" error={errors.code}>
        <Input
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LOGIN_CODE_DIGITS}
          placeholder="12345"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          className="text-center text-lg tracking-[0.5em]"
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={verify.isPending}>
        {verify.isPending ? "Verifying..." : "Verify Code"}
      </Button>
      <Button type="button" variant="link" className="w-full" onClick={onUseDifferentEmail}>
        Use Different Email
      </Button>
    </form>
  );
}
