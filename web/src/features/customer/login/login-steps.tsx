import { useState } from "react";
import { LoginCodeCard } from "./login-code-card";
import { LoginEmailCard } from "./login-email-card";

/** Step 1 asks for the email, step 2 for the mailed code; 'Use Different Email' goes back with the email kept. */
export function LoginSteps() {
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo) return <LoginCodeCard email={sentTo} onUseDifferentEmail={() => setSentTo(null)} />;
  return <LoginEmailCard email={email} onEmailChange={setEmail} onCodeSent={setSentTo} />;
}
