import { PageContainer } from "@/components/layout/page-container";
import { AdminHeader } from "@/features/admin/overview/admin-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SmtpConfigDataForm } from "./smtp-config-data-form";

/** /smtp-config: the mail server the Worker sends through (an admin's screen, under the admin header). */
export function SmtpConfigPage() {
  return (
    <>
      <AdminHeader />
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
    </>
  );
}
