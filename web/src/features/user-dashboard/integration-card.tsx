import { CodeBlock } from "@/components/code-block";
import { CopyButton } from "@/components/copy-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** The api key and the snippet for the customer's site, both as text, each with a copy button. */
export function IntegrationCard({ apiKey, jsSnippet }: { apiKey: string; jsSnippet: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Integration</CardTitle>
        <CardDescription>Use your API key and add the snippet to every page of your website.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <section className="space-y-2">
          <div className="flex items-center justify-between gap-2">
            <h4 className="font-medium">API Key</h4>
            <CopyButton text={apiKey} label="Copy API key" />
          </div>
          <CodeBlock code={apiKey} />
        </section>
        <section className="space-y-2">
          <div className="flex items-center justify-between gap-2">
            <h4 className="font-medium">JavaScript Snippet</h4>
            <CopyButton text={jsSnippet} label="Copy snippet" />
          </div>
          <CodeBlock code={jsSnippet} />
        </section>
      </CardContent>
    </Card>
  );
}
