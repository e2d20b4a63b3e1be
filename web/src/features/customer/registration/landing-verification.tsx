import { useTokenVerification } from "./use-token-verification";
import { VerificationFailedCard } from "./verification-failed-card";
import { VerificationProgressCard } from "./verification-progress-card";
import { VerifiedCard } from "./verified-card";

/** Page B after the mailed link: the key is stored, and the dashboard is one click away. */
export function LandingVerification({ token }: { token: string }) {
  const verification = useTokenVerification(token);

  if (verification.isError) {
    return (
      <VerificationFailedCard
        message="Failed to verify email. The link may be expired or invalid."
        registerTo="/register-form"
      />
    );
  }
  if (!verification.isSuccess) return <VerificationProgressCard />;

  return (
    <VerifiedCard
      title="Your API key is ready"
      message="Your email address has been verified and your API key is stored in this browser."
      to="/dashboard"
      linkLabel="Go to Dashboard"
    />
  );
}
