import { useSearchParams } from "react-router-dom";
import { PageContainer } from "@/components/layout/page-container";
import { TrackingPixel } from "@/components/layout/tracking-pixel";
import { EmailVerification } from "./email-verification";
import { RegistrationSteps } from "./registration-steps";

/** Registration page A (/register and /verify-email): the mailed link brings the visitor back with ?token=. */
export function RegisterPage() {
  const token = useSearchParams()[0].get("token");

  return (
    <PageContainer className="max-w-md">
      <TrackingPixel />
      {token ? <EmailVerification token={token} /> : <RegistrationSteps />}
    </PageContainer>
  );
}
