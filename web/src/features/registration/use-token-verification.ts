import { useEffect, useRef } from "react";
import { useVerifyEmail } from "@/queries/registration";

/**
 * Verifies the `token` of the mailed link as soon as the page opens. Exactly once per token: the token is
 * single-use, and React may run effects twice in development.
 */
export function useTokenVerification(token: string | null) {
  const verifyEmail = useVerifyEmail();
  const { mutate } = verifyEmail;
  const verifiedToken = useRef<string | null>(null);

  useEffect(() => {
    if (!token || verifiedToken.current === token) return;
    verifiedToken.current = token;
    mutate(token);
  }, [token, mutate]);

  return verifyEmail;
}
