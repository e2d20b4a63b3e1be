import { CircleCheck } from "lucide-react";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";

interface VerifiedCardProps {
  title: string;
  message: string;
  /** Where the one button leads, and its label. */
  to: string;
  linkLabel: string;
}

/** The email is verified: a green check, the title, one line and one button link (pages A and B). */
export function VerifiedCard({ title, message, to, linkLabel }: VerifiedCardProps) {
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CircleCheck className="h-10 w-10 text-success" aria-hidden="true" />
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="text-center text-sm text-muted-foreground">
        <p>{message}</p>
      </CardContent>
      <CardFooter className="justify-center">
        <Button asChild>
          <Link to={to}>{linkLabel}</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
