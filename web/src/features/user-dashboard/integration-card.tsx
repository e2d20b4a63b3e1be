import { CodeBlock } from "@/components/code-block";
import { CopyButton } from "@/components/copy-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

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

/** The api key and the snippet for the customer's site, both as text, each with a copy button. */
export function IntegrationCard({ apiKey, jsSnippet }: { apiKey: string; jsSnippet: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Integration</CardTitle>
        <CardDescription>Use your API key and add the snippet to every page of your website.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <CopyableCode title="API Key" code={apiKey} copyLabel="Copy API key" />
        <CopyableCode title="JavaScript Snippet" code={jsSnippet} copyLabel="Copy snippet" />
      </CardContent>
    </Card>
  );
}
