import { Link } from "react-router-dom";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { LoginEmailForm, type LoginEmailFormProps } from "./login-email-form";

/** Step 1. */
export function LoginEmailCard(props: LoginEmailFormProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Login</CardTitle>
        <CardDescription>Enter your email address and we'll send you a login code.</CardDescription>
      </CardHeader>
      <CardContent>
        <LoginEmailForm {...props} />
      </CardContent>
      <CardFooter className="justify-center text-sm text-muted-foreground">
        <p>
          Don't have an account?{" "}
          <Link to="/register" className="text-primary underline-offset-4 hover:underline">
            Sign Up
          </Link>
        </p>
      </CardFooter>
    </Card>
  );
}
