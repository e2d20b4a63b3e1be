import { Link } from "react-router-dom";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { useExternalLinks } from "@/queries/site-config";
import { RegisterEmailForm } from "./register-email-form";

/** Step 1 of page A. */
export function RegisterFormCard({ onRegistered }: { onRegistered: (email: string) => void }) {
  const links = useExternalLinks();
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
        {/* Without a configured site there are no terms to agree to: no sentence rather than a dead link. */}
        {links && (
          <p>
            By registering, you agree to our{" "}
            <a href={links.termsOfService} className="underline hover:text-foreground">
              Terms of Service
            </a>{" "}
            and{" "}
            <a href={links.privacyPolicy} className="underline hover:text-foreground">
              Privacy Policy
            </a>
            .
          </p>
        )}
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
