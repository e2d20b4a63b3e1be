import { Loading } from "@/components/loading";
import { useSmtpConfig } from "@/queries/smtp-config";
import { SmtpConfigForm, type SmtpConfigFormValues } from "./smtp-config-form";

const EMPTY: SmtpConfigFormValues = { host: "", port: "", user: "", password: "", from: "", testTo: "" };

/** Loads the stored configuration into the form; a failed load leaves it empty (and toasts). */
export function SmtpConfigDataForm() {
  const config = useSmtpConfig();

  if (config.isPending) return <Loading />;
  const initial = config.data ? { ...config.data, port: config.data.port?.toString() ?? "", testTo: "" } : EMPTY;
  // A new answer (saved or removed) starts the form again from what is stored.
  return <SmtpConfigForm key={config.dataUpdatedAt} initial={initial} stored={Boolean(config.data?.host)} />;
}
