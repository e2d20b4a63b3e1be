/**
 * @module Where the snippet goes in the common ways of building a website (docs/getting-started.md, "Install
 * guides"): each with its code, built from the snippet's own text (contract/snippet-text.ts), and a sentence in
 * English or German.
 */
import { snippetText, USER_ID_PLACEHOLDER } from "#contract/snippet-text";
import type { GettingStartedLanguage } from "./getting-started-text";

export interface InstallGuide {
  name: string;
  instructions: string;
  code: string;
}

type GuideKey = "html" | "next" | "wordpress" | "shopify" | "gtm";

const INSTRUCTIONS: Record<GettingStartedLanguage, Record<GuideKey, string>> = {
  en: {
    html: "Paste the code into every page, just before the closing </body> tag.",
    next: "In the App Router, add both scripts to the root layout (app/layout.tsx), so that every page has them.",
    wordpress:
      "In your child theme's functions.php (Appearance → Theme File Editor), or in a header-and-footer plugin's footer box without the PHP lines.",
    shopify: "Online Store → Themes → … → Edit code: open layout/theme.liquid and paste the code just before </body>.",
    gtm: "Tags → New → Custom HTML: paste the code and trigger it on All Pages. Check my page cannot see a tag added this way: open your page to see the content.",
  },
  de: {
    html: "Fügen Sie den Code in jede Seite ein, direkt vor dem schließenden </body>-Tag.",
    next: "Im App Router fügen Sie beide Skripte in das Root-Layout (app/layout.tsx) ein, damit jede Seite sie hat.",
    wordpress:
      "In die functions.php Ihres Child-Themes (Design → Theme-Datei-Editor) oder ohne die PHP-Zeilen in das Footer-Feld eines Header-und-Footer-Plugins.",
    shopify:
      "Onlineshop → Themes → … → Code bearbeiten: layout/theme.liquid öffnen und den Code direkt vor </body> einfügen.",
    gtm: "Tags → Neu → Benutzerdefiniertes HTML: Code einfügen und bei allen Seiten auslösen. „Meine Seite prüfen“ sieht so hinzugefügte Tags nicht: Öffnen Sie Ihre Seite, um den Inhalt zu sehen.",
  },
};

function nextJsLayout(origin: string, userId: string): string {
  return [
    "// app/layout.tsx",
    "export default function RootLayout({ children }: { children: React.ReactNode }) {",
    "  return (",
    '    <html lang="en">',
    "      <body>",
    "        {children}",
    `        <script dangerouslySetInnerHTML={{ __html: ${JSON.stringify(`window.dynamicContentUserId = ${JSON.stringify(userId)};`)} }} />`,
    `        <script async src="${origin}/snippet.js" />`,
    "      </body>",
    "    </html>",
    "  );",
    "}",
  ].join("\n");
}

function wordpressFooter(snippet: string): string {
  return ["add_action('wp_footer', function () { ?>", snippet, "<?php });"].join("\n");
}

export function installGuides(
  origin: string,
  userId: string = USER_ID_PLACEHOLDER,
  lang: GettingStartedLanguage = "en",
): InstallGuide[] {
  const snippet = snippetText(origin, userId);
  const says = INSTRUCTIONS[lang];
  return [
    { name: "HTML", instructions: says.html, code: snippet },
    { name: "Next.js", instructions: says.next, code: nextJsLayout(origin, userId) },
    { name: "WordPress", instructions: says.wordpress, code: wordpressFooter(snippet) },
    { name: "Shopify", instructions: says.shopify, code: snippet },
    { name: "Google Tag Manager", instructions: says.gtm, code: snippet },
  ];
}
