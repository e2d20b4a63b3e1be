import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useUpdateSmtpConfig } from "@/queries/smtp-config";

export interface SmtpConfigFormValues {
  host: string;
  port: string;
  user: string;
  password: string;
  from: string;
}

export function SmtpConfigForm({ initial }: { initial: SmtpConfigFormValues }) {
  const [values, setValues] = useState(initial);
  const { errors, check } = useSchemaCheck((schemas) => schemas.smtpConfigBody);
  const update = useUpdateSmtpConfig();

  const bind = (field: keyof SmtpConfigFormValues) => ({
    value: values[field],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = await check(values);
    if (body) update.mutate(body);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="SMTP Host" error={errors.host}>
        <Input placeholder="smtp.example.com" {...bind("host")} />
      </FormField>
      <FormField label="SMTP Port" error={errors.port}>
        <Input inputMode="numeric" placeholder="587" {...bind("port")} />
      </FormField>
      <FormField label="SMTP Username" error={errors.user}>
        <Input autoComplete="off" {...bind("user")} />
      </FormField>
      <FormField label="SMTP Password" error={errors.password}>
        <PasswordInput autoComplete="new-password" {...bind("password")} />
      </FormField>
      <FormField label="From Email" error={errors.from}>
        <Input type="email" placeholder="noreply@example.com" {...bind("from")} />
      </FormField>
      <Button type="submit" disabled={update.isPending}>
        Update SMTP Config
      </Button>
    </form>
  );
}
