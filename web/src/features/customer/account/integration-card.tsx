import { RefreshCw } from "lucide-react";
import { CodeBlock } from "@/components/code-block";
import { ConfirmedOutlineButton } from "@/components/confirm-action-button";
import { CopyButton } from "@/components/copy-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useImpersonation } from "@/hooks/use-impersonation";
import { useRotateApiKey } from "@/queries/api-keys";

/** A titled text with its copy button (named `copyLabel`). */
function CopyableCode({ title, code, copyLabel }: { title: string; code: string; copyLabel: string }) {
  return (
    <section className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h4 className="font-medium">{title}</h4>
        <CopyButton text={code} label={copyLabel} />
      </div>
      <CodeBlock code={code} />
    </section>
  );
}

/** Replaces the customer's key after asking; not offered to an admin acting as the customer. */
function RotateKeyButton() {
  const rotate = useRotateApiKey({
    success: { title: "API key rotated", description: "Your old key no longer works." },
  });
  return (
    <ConfirmedOutlineButton
      label={
        <>
          <RefreshCw aria-hidden="true" />
          Rotate API key
        </>
      }
      pending={rotate.isPending}
      title="Rotate your API key?"
      description="Your current key stops working at once; use the new one from now on. The snippet on your website does not use the key and keeps working."
      confirmLabel="Rotate key"
      cancelLabel="Cancel"
      onConfirm={() => rotate.mutate()}
    />
  );
}

/** The api key and the snippet for the customer's site, both as text, each with a copy button. */
export function IntegrationCard({ apiKey, jsSnippet }: { apiKey: string; jsSnippet: string }) {
  const { impersonatedEmail } = useImpersonation();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Integration</CardTitle>
        <CardDescription>Use your API key and add the snippet to every page of your website.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <CopyableCode title="API Key" code={apiKey} copyLabel="Copy API key" />
        {!impersonatedEmail && <RotateKeyButton />}
        <CopyableCode title="JavaScript Snippet" code={jsSnippet} copyLabel="Copy snippet" />
      </CardContent>
    </Card>
  );
}
