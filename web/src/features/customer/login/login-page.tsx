import { useSearchParams } from "react-router-dom";
import { PageContainer } from "@/components/layout/page-container";
import { TrackingPixel } from "@/components/layout/tracking-pixel";
import { LinkSignIn } from "./link-sign-in";
import { LoginSteps } from "./login-steps";

/** /login: the customer signs in with a code mailed to them (SPEC.md §2), or with a mailed sign-in link. */
export function LoginPage() {
  const token = useSearchParams()[0].get("token");
  return (
    <PageContainer className="max-w-md">
      <TrackingPixel />
      {token ? <LinkSignIn token={token} /> : <LoginSteps />}
    </PageContainer>
  );
}
