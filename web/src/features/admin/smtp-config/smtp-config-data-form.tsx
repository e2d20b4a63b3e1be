import { Loading } from "@/components/loading";
import { useSmtpConfig } from "@/queries/smtp-config";
import { SmtpConfigForm, type SmtpConfigFormValues } from "./smtp-config-form";

const EMPTY: SmtpConfigFormValues = { host: "", port: "", user: "", password: "", from: "" };

/** Loads the stored configuration into the form; a failed load leaves it empty (and toasts). */
export function SmtpConfigDataForm() {
  const config = useSmtpConfig();

  if (config.isPending) return <Loading />;
  const initial = config.data ? { ...config.data, port: config.data.port?.toString() ?? "" } : EMPTY;
  return <SmtpConfigForm initial={initial} />;
}
