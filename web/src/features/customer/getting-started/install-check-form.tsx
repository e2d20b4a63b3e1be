/**
 * @module "Check my page" (docs/getting-started.md): a page URL in; what the Worker found there out, a line per
 * finding and a plain sentence per problem. Everything shown is text.
 */
import { useState, type FormEvent } from "react";
import { CheckCircle2, XCircle } from "lucide-react";
import type { InstallCheck } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { describeError } from "@/lib/api";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useInstallCheck } from "@/queries/onboarding";
import { GETTING_STARTED_TEXT, type GettingStartedLanguage } from "./getting-started-text";

const FINDINGS = ["reachable", "snippetFound", "userIdMatches", "mappingMatches"] as const;

function Findings({ result, lang }: { result: InstallCheck; lang: GettingStartedLanguage }) {
  const text = GETTING_STARTED_TEXT[lang].check;
  return (
    <div role="status" aria-label={text.title} className="space-y-3 rounded-md border p-4 text-sm">
      <ul className="space-y-1">
        {FINDINGS.map((finding) => (
          <li key={finding} className="flex items-center gap-2">
            {result[finding] ? (
              <CheckCircle2 aria-hidden="true" className="h-4 w-4 text-green-600" />
            ) : (
              <XCircle aria-hidden="true" className="h-4 w-4 text-destructive" />
            )}
            {text[finding]}: {result[finding] ? text.yes : text.no}
          </li>
        ))}
      </ul>
      {result.problems.length === 0 ? (
        <p className="font-medium text-green-700">{text.allGood}</p>
      ) : (
        <div className="space-y-1">
          <p className="font-medium">{text.problems}</p>
          <ul aria-label={text.problems} className="list-disc space-y-1 pl-5">
            {result.problems.map((problem) => (
              <li key={problem} className="break-words">
                {problem}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

export function InstallCheckForm({ lang = "en" }: { lang?: GettingStartedLanguage }) {
  const text = GETTING_STARTED_TEXT[lang].check;
  const [url, setUrl] = useState("");
  const { errors, check } = useSchemaCheck((schemas) => schemas.installCheckBody);
  const installCheck = useInstallCheck();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = await check({ url });
    if (body) installCheck.mutate(body);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-muted-foreground">{text.intro}</p>
      <FormField label={text.url} error={errors.url}>
        <Input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://www.example.com/" />
      </FormField>
      <Button type="submit" variant="outline" disabled={installCheck.isPending}>
        {installCheck.isPending ? text.checking : text.button}
      </Button>
      {installCheck.isError && <p className="text-sm text-destructive">{describeError(installCheck.error)}</p>}
      {installCheck.data && !installCheck.isPending && <Findings result={installCheck.data} lang={lang} />}
    </form>
  );
}
