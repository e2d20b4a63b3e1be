import { useSnippetOrigin } from "@/queries/site-config";
import { snippetText, USER_ID_PLACEHOLDER } from "#contract/snippet-text";
import { PageContainer } from "@/components/layout/page-container";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/code-block";
import { LazyPanel } from "@/components/lazy-panel";
import { useStoredApiKey } from "@/hooks/use-stored-session";
import { lazyScreen } from "@/lib/lazy-screen";

/** The install guides and "Check my page": a chunk of their own (docs/spa.md "Code splitting"). */
const SnippetHelp = lazyScreen(() => import("../getting-started/snippet-help").then((m) => m.SnippetHelp));

export function SnippetPage() {
  const origin = useSnippetOrigin();
  const code = snippetText(origin);
  const signedIn = useStoredApiKey() !== null;

  return (
    <PageContainer className="max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold">Dynamic Content Snippet</h1>
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">Add this code to your website</CardTitle>
        </CardHeader>
        <CardContent>
          <CodeBlock code={code} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">How it works</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="list-decimal space-y-2 pl-6">
            <li>
              Paste the code into every page of your website, just before the closing <code>&lt;/body&gt;</code> tag.
            </li>
            <li>
              Replace <code>{USER_ID_PLACEHOLDER}</code> with your user ID from your dashboard.
            </li>
            <li>The script checks the current page URL and your user ID against your URL mappings.</li>
            <li>If both match a mapping, its HTML content is injected at the top of the page automatically.</li>
          </ol>
        </CardContent>
      </Card>
      <LazyPanel name="snippet-help">
        <SnippetHelp origin={origin} signedIn={signedIn} />
      </LazyPanel>
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">Automate it</CardTitle>
        </CardHeader>
        <CardContent>
          <p>
            Create, update, publish, schedule and list mappings from your own tools with your API key. The API is
            described in{" "}
            <a href="/api/openapi.json" className="text-primary underline-offset-4 hover:underline">
              OpenAPI 3.1
            </a>
            .
          </p>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
