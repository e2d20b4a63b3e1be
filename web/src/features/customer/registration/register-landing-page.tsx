import { useSearchParams } from "react-router-dom";
import { PageContainer } from "@/components/layout/page-container";
import { TrackingPixel } from "@/components/layout/tracking-pixel";
import { LandingSignup } from "./landing-signup";
import { LandingVerification } from "./landing-verification";

/** Registration page B (/register-form): the landing page; the mailed link returns here with ?token=. */
export function RegisterLandingPage() {
  const token = useSearchParams()[0].get("token");

  return (
    <PageContainer className="max-w-2xl space-y-8 py-12">
      <TrackingPixel />
      <section className="space-y-4 text-center">
        <h1 className="text-4xl font-bold tracking-tight">
          Automate Updates with One Snippet – Get Your Free API Key!
        </h1>
        <p className="text-lg text-muted-foreground">
          Map your page URLs to HTML content once, add one line of code, and keep every page up to date automatically.
        </p>
      </section>
      <div className="mx-auto max-w-md">{token ? <LandingVerification token={token} /> : <LandingSignup />}</div>
    </PageContainer>
  );
}
