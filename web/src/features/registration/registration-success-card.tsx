import { CircleCheck } from "lucide-react";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";

/** Step 3 of page A: verified; the key went out by mail (and is stored in this browser). */
export function RegistrationSuccessCard() {
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CircleCheck className="h-10 w-10 text-success" aria-hidden="true" />
        <CardTitle>Registration Successful</CardTitle>
      </CardHeader>
      <CardContent className="text-center text-sm text-muted-foreground">
        <p>Your email address has been verified. Your API key has been sent to your email.</p>
      </CardContent>
      <CardFooter className="justify-center">
        <Button asChild>
          <Link to="/login">Go to Login</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
