import { useSnippetOrigin } from "@/queries/site-config";
import { snippetText } from "#contract/snippet-text";
import { CodeBlock } from "@/components/code-block";
import { CopyButton } from "@/components/copy-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { GERMAN_COPY } from "@/lib/clipboard";

/** The embed code with this user's id: the same text the customer's own dashboard shows. */
export function SnippetTab({ userId }: { userId: string }) {
  const code = snippetText(useSnippetOrigin(), userId);
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="text-xl">JavaScript Snippet</CardTitle>
          <CopyButton text={code} label="Snippet kopieren" messages={GERMAN_COPY} />
        </div>
        <CardDescription>Diesen Code in jede Seite der Webseite des Nutzers einfügen.</CardDescription>
      </CardHeader>
      <CardContent>
        <CodeBlock code={code} />
      </CardContent>
    </Card>
  );
}
