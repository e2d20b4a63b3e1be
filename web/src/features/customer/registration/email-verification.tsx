import { describeError } from "@/lib/api";
import { useTokenVerification } from "./use-token-verification";
import { VerificationFailedCard } from "./verification-failed-card";
import { VerificationProgressCard } from "./verification-progress-card";
import { VerifiedCard } from "./verified-card";

/** Step 3 of page A: verifies the token and shows the outcome. */
export function EmailVerification({ token }: { token: string }) {
  const verification = useTokenVerification(token);

  if (verification.isSuccess) {
    // Verified, and the key is stored in this browser. It went out by mail at the address's first verification only:
    // a repeated link (key recovery) says so rather than promise a mail.
    return verification.data.keyMailed ? (
      <VerifiedCard
        title="Registration Successful"
        message="Your email address has been verified. Your API key has been sent to your email."
        to="/login"
        linkLabel="Go to Login"
      />
    ) : (
      <VerifiedCard
        title="Registration Successful"
        message="Your email address is verified again. Your API key is stored in this browser, and it was sent to your email when you first registered."
        to="/user-dashboard"
        linkLabel="Go to Dashboard"
      />
    );
  }
  if (verification.isError) {
    return (
      <VerificationFailedCard
        message={describeError(verification.error, "Failed to verify email")}
        registerTo="/register"
      />
    );
  }
  return <VerificationProgressCard />;
}
