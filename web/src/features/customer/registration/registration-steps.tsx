import { useState } from "react";
import { CheckEmailCard } from "./check-email-card";
import { RegisterFormCard } from "./register-form-card";

/** Steps 1 and 2 of page A: the form, then 'Check Your Email'. */
export function RegistrationSteps() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  return sentTo ? <CheckEmailCard email={sentTo} /> : <RegisterFormCard onRegistered={setSentTo} />;
}
