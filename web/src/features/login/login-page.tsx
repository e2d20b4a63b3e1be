import { PageContainer } from "@/components/layout/page-container";
import { TrackingPixel } from "@/components/layout/tracking-pixel";
import { LoginSteps } from "./login-steps";

/** /login: the customer signs in with a code mailed to them (SPEC.md §2). */
export function LoginPage() {
  return (
    <PageContainer className="max-w-md">
      <TrackingPixel />
      <LoginSteps />
    </PageContainer>
  );
}
