import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse, SmtpConfig } from "#contract/responses";
import { apiJson, getJson } from "@/lib/api";
import { toast } from "@/lib/toast";

export const smtpConfigKeys = { all: ["smtp-config"] as const };

export function useSmtpConfig() {
  return useQuery({
    queryKey: smtpConfigKeys.all,
    queryFn: () => getJson<SmtpConfig>("/api/smtp-config"),
  });
}

/**
 * POST /api/smtp-config: the server tries the settings (and sends the test mail to `testTo`) before it stores them;
 * a failure toasts the server's message, which names the step that failed.
 */
export function useUpdateSmtpConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: SmtpConfig & { testTo?: string }) =>
      apiJson<MessageResponse>("POST", "/api/smtp-config", config),
    onSuccess: () => {
      toast({ title: "SMTP configuration updated successfully" });
      return queryClient.invalidateQueries({ queryKey: smtpConfigKeys.all });
    },
  });
}

/** DELETE /api/smtp-config: mail goes by MailChannels or the console again. */
export function useRemoveSmtpConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<MessageResponse>("DELETE", "/api/smtp-config"),
    onSuccess: ({ message }) => {
      toast({ title: message });
      return queryClient.invalidateQueries({ queryKey: smtpConfigKeys.all });
    },
  });
}
