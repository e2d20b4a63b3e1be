import { describeError } from "@/lib/api";
import { useTokenVerification } from "./use-token-verification";
import { VerificationFailedCard } from "./verification-failed-card";
import { VerificationProgressCard } from "./verification-progress-card";
import { VerifiedCard } from "./verified-card";

/** Step 3 of page A: verifies the token and shows the outcome. */
export function EmailVerification({ token }: { token: string }) {
  const verification = useTokenVerification(token);

  if (verification.isSuccess) {
    // Verified; the key went out by mail (and is stored in this browser).
    return (
      <VerifiedCard
        title="Registration Successful"
        message="Your email address has been verified. Your API key has been sent to your email."
        to="/login"
        linkLabel="Go to Login"
      />
    );
  }
  if (verification.isError) {
    return <VerificationFailedCard message={describeError(verification.error, "Failed to verify email")} />;
  }
  return <VerificationProgressCard />;
}
