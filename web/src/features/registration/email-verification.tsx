import { describeError } from "@/lib/api";
import { RegistrationSuccessCard } from "./registration-success-card";
import { useTokenVerification } from "./use-token-verification";
import { VerificationFailedCard } from "./verification-failed-card";
import { VerificationProgressCard } from "./verification-progress-card";

/** Step 3 of page A: verifies the token and shows the outcome. */
export function EmailVerification({ token }: { token: string }) {
  const verification = useTokenVerification(token);

  if (verification.isSuccess) return <RegistrationSuccessCard />;
  if (verification.isError) {
    return <VerificationFailedCard message={describeError(verification.error, "Failed to verify email")} />;
  }
  return <VerificationProgressCard />;
}
