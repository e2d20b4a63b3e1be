import { CircleAlert } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

export function VerificationFailedCard({ message }: { message: string }) {
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CircleAlert className="h-10 w-10 text-destructive" aria-hidden="true" />
        <CardTitle>Verification Failed</CardTitle>
      </CardHeader>
      <CardContent>
        <p role="alert" className="text-center text-sm text-destructive">
          {message}
        </p>
      </CardContent>
    </Card>
  );
}
