import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";

export function VerificationProgressCard() {
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CardTitle>Verifying your email...</CardTitle>
      </CardHeader>
      <CardContent className="flex justify-center">
        <Spinner />
      </CardContent>
    </Card>
  );
}
