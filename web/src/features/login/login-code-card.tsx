import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LoginCodeForm } from "./login-code-form";

/** Step 2. */
export function LoginCodeCard({ email, onUseDifferentEmail }: { email: string; onUseDifferentEmail: () => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Enter Your Code</CardTitle>
        <CardDescription>
          We've sent a 5-digit code to <strong className="text-foreground">{email}</strong>.
        </CardDescription>
        <CardDescription>
          If the address is not verified yet, or after too many wrong codes, the mail holds a link instead: follow it to
          sign in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <LoginCodeForm onUseDifferentEmail={onUseDifferentEmail} />
      </CardContent>
    </Card>
  );
}
