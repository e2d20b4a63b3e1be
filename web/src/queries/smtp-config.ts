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

export function useUpdateSmtpConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: SmtpConfig) => apiJson<MessageResponse>("POST", "/api/smtp-config", config),
    onSuccess: () => {
      toast({ title: "SMTP configuration updated successfully" });
      return queryClient.invalidateQueries({ queryKey: smtpConfigKeys.all });
    },
  });
}
