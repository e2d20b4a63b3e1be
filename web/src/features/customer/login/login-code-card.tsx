import { Link } from "react-router-dom";
import { LOGIN_CODE_DIGITS } from "#contract/input-caps";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LoginCodeForm } from "./login-code-form";

/** Step 2. */
export function LoginCodeCard({ email, onUseDifferentEmail }: { email: string; onUseDifferentEmail: () => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Enter Your Code</CardTitle>
        <CardDescription>
          We've sent a {LOGIN_CODE_DIGITS}-digit code to <strong className="text-foreground">{email}</strong>.
        </CardDescription>
        <CardDescription>
          If the address is not verified yet, or after too many wrong codes, the mail holds a link instead: follow it to
          sign in.
        </CardDescription>
        <CardDescription>
          No mail after a few minutes? Check the address above and your spam folder. Codes go only to registered
          addresses:{" "}
          <Link to="/register" className="text-primary underline-offset-4 hover:underline">
            register
          </Link>{" "}
          first if you have no account yet.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <LoginCodeForm onUseDifferentEmail={onUseDifferentEmail} />
      </CardContent>
    </Card>
  );
}
