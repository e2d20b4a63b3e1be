import { PageContainer } from "@/components/layout/page-container";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SmtpConfigDataForm } from "./smtp-config-data-form";

/** /smtp-config: the mail server the Worker sends through. */
export function SmtpConfigPage() {
  return (
    <PageContainer className="max-w-xl">
      <Card>
        <CardHeader>
          <CardTitle>SMTP Configuration</CardTitle>
          <CardDescription>The mail server used for verification links, login codes and API keys.</CardDescription>
        </CardHeader>
        <CardContent>
          <SmtpConfigDataForm />
        </CardContent>
      </Card>
    </PageContainer>
  );
}
