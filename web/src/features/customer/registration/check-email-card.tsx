import { MailCheck } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

/** Step 2: the verification mail is on its way. */
export function CheckEmailCard({ email }: { email: string }) {
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <MailCheck className="h-10 w-10 text-primary" aria-hidden="true" />
        <CardTitle>Check Your Email</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 text-center text-sm text-muted-foreground">
        <p>
          We've sent a verification link to <strong className="text-foreground">{email}</strong>. Click the link to
          verify your email address and receive your API key.
        </p>
        <p>The link expires in 24 hours.</p>
        <p>If you don't see the email, please check your spam folder.</p>
      </CardContent>
    </Card>
  );
}
