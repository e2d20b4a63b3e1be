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
      </CardHeader>
      <CardContent>
        <LoginCodeForm onUseDifferentEmail={onUseDifferentEmail} />
      </CardContent>
    </Card>
  );
}
