import { useMutation } from "@tanstack/react-query";
import type { LoginRequestResponse, LoginVerifyResponse, VerifyEmailResponse } from "#contract/responses";
import { apiJson, apiRequest, getJson } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useSessionActions } from "@/hooks/use-session-actions";

export const EMAIL_NOT_RETURNED_MESSAGE = "Failed to retrieve email from server.";
export const NO_API_KEY_RECEIVED_MESSAGE = "No API key received from server";

async function readSentToEmail(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as Partial<LoginRequestResponse> | null;
    if (typeof body?.email === "string" && body.email) return body.email;
  } catch {
    // Not JSON: reported below like a body without an email.
  }
  throw new Error(EMAIL_NOT_RETURNED_MESSAGE);
}

/**
 * POST /api/login/request-otp: mails a login code; answers the address it went to. The email is lowercased
 * (SPEC.md §5); the server sets the cookie that ties the code to this browser.
 */
export function useRequestLoginCode() {
  return useMutation({
    mutationFn: async (email: string) =>
      readSentToEmail(await apiRequest("POST", "/api/login/request-otp", { email: email.toLowerCase() })),
  });
}

/** POST /api/login/verify-otp: exchanges the code (and the cookie) for the api key, which is stored at once. */
export function useVerifyLoginCode() {
  const { signIn } = useSessionActions();
  return useMutation({
    mutationFn: async (code: string) => {
      const data = await apiJson<Partial<LoginVerifyResponse> | null>("POST", "/api/login/verify-otp", { code });
      if (!data?.apiKey) throw new Error(NO_API_KEY_RECEIVED_MESSAGE);
      return { apiKey: data.apiKey, role: data.user?.role ?? null };
    },
    onSuccess: ({ apiKey, role }) => {
      signIn(apiKey, role);
      toast({ title: "Login successful!" });
    },
  });
}

/**
 * GET /api/verify-email with the token of a mailed sign-in link (sent instead of a code after too many wrong
 * codes): the key is stored as a login's would be. The page shows a failure itself.
 */
export function useSignInWithLink() {
  const { signIn } = useSessionActions();
  return useMutation({
    mutationFn: (token: string) => getJson<VerifyEmailResponse>(`/api/verify-email?token=${encodeURIComponent(token)}`),
    onSuccess: ({ apiKey }) => {
      signIn(apiKey, "user");
      toast({ title: "Login successful!" });
    },
    meta: { silent: true },
  });
}
