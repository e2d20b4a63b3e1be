import { useEffect, useRef } from "react";
import { useVerifyEmail } from "@/queries/registration";

/**
 * Verifies the `token` of the mailed link as soon as the page opens. Exactly once per token: the token is
 * single-use, and React may run effects twice in development. Once sent, the token leaves the address bar (and so
 * the history, bookmarks and what a shared screen shows); the screen keeps the token it was opened with, since
 * the router is not told.
 */
export function useTokenVerification(token: string | null) {
  const verifyEmail = useVerifyEmail();
  const { mutate } = verifyEmail;
  const verifiedToken = useRef<string | null>(null);

  useEffect(() => {
    if (!token || verifiedToken.current === token) return;
    verifiedToken.current = token;
    mutate(token);
    const url = new URL(window.location.href);
    url.searchParams.delete("token");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }, [token, mutate]);

  return verifyEmail;
}
