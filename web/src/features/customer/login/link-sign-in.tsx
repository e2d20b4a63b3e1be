import { CircleAlert } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { describeError } from "@/lib/api";
import { useSignInWithLink } from "@/queries/login";

export const LINK_FAILED_MESSAGE = "This sign-in link is invalid or has expired.";

/** /login?token=…: signs in with a mailed link, then opens /user-dashboard; a bad link says so. */
export function LinkSignIn({ token }: { token: string }) {
  const signIn = useSignInWithLink();
  const { mutate } = signIn;
  const navigate = useNavigate();
  // The token is single-use, and React may run effects twice in development.
  const usedToken = useRef<string | null>(null);

  useEffect(() => {
    if (usedToken.current === token) return;
    usedToken.current = token;
    mutate(token, { onSuccess: () => navigate("/user-dashboard") });
  }, [token, mutate, navigate]);

  if (!signIn.isError) {
    return (
      <Card>
        <CardHeader className="items-center text-center">
          <CardTitle>Signing you in...</CardTitle>
        </CardHeader>
        <CardContent className="flex justify-center">
          <Spinner />
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CircleAlert className="h-10 w-10 text-destructive" aria-hidden="true" />
        <CardTitle>Sign-in Failed</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4 text-center">
        <p role="alert" className="text-sm text-destructive">
          {describeError(signIn.error, LINK_FAILED_MESSAGE)}
        </p>
        <Button asChild variant="outline">
          <Link to="/login" replace>
            Request a new code
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
