import { CircleAlert } from "lucide-react";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";

/**
 * A mailed link that did not verify (used, expired or broken), with the two ways on: an address verified by an
 * earlier click logs in; any other registers again for a new link (on the page the link came from: `registerTo`).
 */
export function VerificationFailedCard({ message, registerTo }: { message: string; registerTo: string }) {
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CircleAlert className="h-10 w-10 text-destructive" aria-hidden="true" />
        <CardTitle>Verification Failed</CardTitle>
      </CardHeader>
      <CardContent className="space-y-2 text-center text-sm">
        <p role="alert" className="text-destructive">
          {message}
        </p>
        <p className="text-muted-foreground">
          Already verified? Log in with your email. Otherwise register again to get a new link.
        </p>
      </CardContent>
      <CardFooter className="flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to="/login">Log in</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={registerTo}>Register again</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
