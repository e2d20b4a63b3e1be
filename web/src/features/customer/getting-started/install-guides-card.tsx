import { CodeBlock } from "@/components/code-block";
import { CopyButton } from "@/components/copy-button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ENGLISH_COPY, GERMAN_COPY } from "@/lib/clipboard";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { GETTING_STARTED_TEXT, type GettingStartedLanguage } from "./getting-started-text";
import { installGuides } from "./install-guides";

/** The install guides, a tab each, their code with a copy button. */
export function InstallGuidesCard({ origin, lang = "en" }: { origin: string; lang?: GettingStartedLanguage }) {
  const text = GETTING_STARTED_TEXT[lang].guides;
  const guides = installGuides(origin, undefined, lang);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">{text.title}</CardTitle>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue={guides[0]!.name}>
          <TabsList className="flex-wrap">
            {guides.map((guide) => (
              <TabsTrigger key={guide.name} value={guide.name}>
                {guide.name}
              </TabsTrigger>
            ))}
          </TabsList>
          {guides.map((guide) => (
            <TabsContent key={guide.name} value={guide.name} className="space-y-3">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p className="text-sm">{guide.instructions}</p>
                <CopyButton
                  text={guide.code}
                  label={text.copy(guide.name)}
                  messages={lang === "de" ? GERMAN_COPY : ENGLISH_COPY}
                />
              </div>
              <CodeBlock code={guide.code} />
            </TabsContent>
          ))}
        </Tabs>
      </CardContent>
    </Card>
  );
}
