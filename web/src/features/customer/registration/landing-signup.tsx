import { useState } from "react";
import { Card, CardContent } from "@/components/ui/card";
import { CheckEmailCard } from "./check-email-card";
import { RegisterEmailForm } from "./register-email-form";

/** Page B's sign-up: the mailed link returns to /register-form, which verifies it (`LandingVerification`). */
export function LandingSignup() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (sentTo) return <CheckEmailCard email={sentTo} />;

  return (
    <Card>
      <CardContent className="pt-6">
        <RegisterEmailForm
          page="register-form"
          submitLabel="Get Instant Access now"
          pendingLabel="Sending..."
          onRegistered={setSentTo}
        />
      </CardContent>
    </Card>
  );
}
