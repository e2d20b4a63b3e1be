import { useState, type FormEvent } from "react";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useRemoveSmtpConfig, useUpdateSmtpConfig } from "@/queries/smtp-config";
import { SMTP_CONFIG_TEXT, type SmtpConfigLanguage } from "./smtp-config-text";

export interface SmtpConfigFormValues {
  host: string;
  port: string;
  user: string;
  password: string;
  from: string;
  /** Optional: where the save sends a test mail. */
  testTo: string;
}

interface SmtpConfigFormProps {
  initial: SmtpConfigFormValues;
  /** Whether a configuration is stored (it can then be removed). */
  stored: boolean;
  lang?: SmtpConfigLanguage;
}

export function SmtpConfigForm({ initial, stored, lang = "en" }: SmtpConfigFormProps) {
  const text = SMTP_CONFIG_TEXT[lang];
  const [values, setValues] = useState(initial);
  const { errors, check } = useSchemaCheck((schemas) => schemas.smtpConfigBody);
  const update = useUpdateSmtpConfig();
  const remove = useRemoveSmtpConfig();

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
      <FormField label={text.testTo} error={errors.testTo}>
        <Input type="email" placeholder="you@example.com" {...bind("testTo")} />
      </FormField>
      <p className="text-sm text-muted-foreground">{text.testToHint}</p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={update.isPending}>
          Update SMTP Config
        </Button>
        {stored && (
          <ConfirmActionButton
            trigger={
              <Button type="button" variant="outline" disabled={remove.isPending}>
                {text.remove}
              </Button>
            }
            title={text.removeTitle}
            description={text.removeDescription}
            confirmLabel={text.removeConfirm}
            cancelLabel={text.cancel}
            onConfirm={() => remove.mutate()}
          />
        )}
      </div>
    </form>
  );
}
