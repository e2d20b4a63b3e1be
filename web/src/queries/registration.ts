import { useMutation } from "@tanstack/react-query";
import type { RegisterResponse, VerifyEmailResponse } from "#contract/responses";
import type { RegisterBody } from "#contract/schemas";
import { apiJson, getJson } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useSessionActions } from "@/hooks/use-session-actions";

/** POST /api/register: sends the verification mail, whose link leads back to `page` (page A without one). */
export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) => apiJson<RegisterResponse>("POST", "/api/register", body),
    onSuccess: () => toast({ title: "Verification email sent" }),
  });
}

/**
 * GET /api/verify-email: exchanges the mailed token for the api key, which is stored at once. The pages show
 * a failure themselves, each in its own words.
 */
export function useVerifyEmail() {
  const { signIn } = useSessionActions();
  return useMutation({
    mutationFn: (token: string) => getJson<VerifyEmailResponse>(`/api/verify-email?token=${encodeURIComponent(token)}`),
    onSuccess: (data) => {
      signIn(data.apiKey);
      toast({ title: "API key stored successfully!" });
    },
    meta: { silent: true },
  });
}
