import { Link } from "react-router-dom";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { externalLinks } from "@/lib/external-links";
import { RegisterEmailForm } from "./register-email-form";

/** Step 1 of page A. */
export function RegisterFormCard({ onRegistered }: { onRegistered: (email: string) => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Register for API Access</CardTitle>
        <CardDescription>Enter your email address to receive your API key.</CardDescription>
      </CardHeader>
      <CardContent>
        <RegisterEmailForm submitLabel="Register" pendingLabel="Registering..." onRegistered={onRegistered} />
      </CardContent>
      <CardFooter className="flex-col gap-2 text-center text-sm text-muted-foreground">
        <p>
          By registering, you agree to our{" "}
          <a href={externalLinks.termsOfService} className="underline hover:text-foreground">
            Terms of Service
          </a>{" "}
          and{" "}
          <a href={externalLinks.privacyPolicy} className="underline hover:text-foreground">
            Privacy Policy
          </a>
          .
        </p>
        <p>
          Already have an account?{" "}
          <Link to="/login" className="text-primary underline-offset-4 hover:underline">
            Login
          </Link>
        </p>
      </CardFooter>
    </Card>
  );
}
