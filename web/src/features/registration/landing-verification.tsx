import { CircleCheck } from "lucide-react";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { useTokenVerification } from "./use-token-verification";
import { VerificationFailedCard } from "./verification-failed-card";
import { VerificationProgressCard } from "./verification-progress-card";

/** Page B after the mailed link: the key is stored, and the dashboard is one click away. */
export function LandingVerification({ token }: { token: string }) {
  const verification = useTokenVerification(token);

  if (verification.isError) {
    return <VerificationFailedCard message="Failed to verify email. The link may be expired or invalid." />;
  }
  if (!verification.isSuccess) return <VerificationProgressCard />;

  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CircleCheck className="h-10 w-10 text-success" aria-hidden="true" />
        <CardTitle>Your API key is ready</CardTitle>
      </CardHeader>
      <CardContent className="text-center text-sm text-muted-foreground">
        <p>Your email address has been verified and your API key is stored in this browser.</p>
      </CardContent>
      <CardFooter className="justify-center">
        <Button asChild>
          <Link to="/dashboard">Go to Dashboard</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
