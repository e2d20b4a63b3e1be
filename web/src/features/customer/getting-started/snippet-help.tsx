/**
 * @module The Snippet page's help (docs/getting-started.md): "Check my page" for a signed-in customer, and the install
 * guides. A chunk of its own, outside the initial bundle (docs/spa.md "Code splitting").
 */
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { GETTING_STARTED_TEXT, type GettingStartedLanguage } from "./getting-started-text";
import { InstallCheckForm } from "./install-check-form";
import { InstallGuidesCard } from "./install-guides-card";

export function SnippetHelp({
  origin,
  signedIn,
  lang = "en",
}: {
  origin: string;
  signedIn: boolean;
  lang?: GettingStartedLanguage;
}) {
  return (
    <>
      <InstallGuidesCard origin={origin} lang={lang} />
      {signedIn && (
        <Card>
          <CardHeader>
            <CardTitle className="text-xl">{GETTING_STARTED_TEXT[lang].check.title}</CardTitle>
          </CardHeader>
          <CardContent>
            <InstallCheckForm lang={lang} />
          </CardContent>
        </Card>
      )}
    </>
  );
}
