/**
 * @module Getting started's labels (docs/getting-started.md), English and German, as experiment-text.ts keeps its
 * own: the customer's screens are English, so every part takes `lang` and defaults to "en".
 */
import type { OnboardingStepKey } from "#contract/responses";

export type GettingStartedLanguage = "en" | "de";

interface StepText {
  title: string;
  /** What to do next, while the step is not done. */
  next: string;
  done: string;
}

export const GETTING_STARTED_TEXT = {
  en: {
    title: "Getting started",
    allDone: "All set: your content is live.",
    dismiss: "Dismiss",
    optional: "optional",
    stateDone: "Done",
    stateOpen: "Not done yet",
    waiting: "Waiting for your first page view…",
    seenOn: (host: string) => `Seen on ${host}`,
    snippetLink: "Get the snippet and check your page",
    websiteLink: "Add an edge website",
    steps: {
      verified: { title: "Verify your email address", next: "Open the link we emailed you.", done: "Verified" },
      mapping: {
        title: "Add a URL mapping",
        next: "Open URL Mappings and add your first one.",
        done: "Added",
      },
      snippet: { title: "Add the snippet to your website", next: "Paste it into your pages.", done: "Seen" },
      firstView: {
        title: "Count your first page view",
        next: "Counted within a minute of the first page view.",
        done: "Counted",
      },
      website: {
        title: "Deliver at the edge",
        next: "Serve your content without the snippet, from your own hostname.",
        done: "Active",
      },
    } satisfies Record<OnboardingStepKey, StepText>,
    // "Check my page" and the guides, on the Snippet page.
    check: {
      title: "Check my page",
      intro: "Dynamic Content fetches your page and looks for the snippet, your user ID and a mapping for its URL.",
      url: "Page URL",
      button: "Check my page",
      checking: "Checking...",
      reachable: "Page reachable",
      snippetFound: "Snippet found",
      userIdMatches: "Your user ID set",
      mappingMatches: "A mapping serves this URL",
      yes: "yes",
      no: "no",
      allGood: "Everything is in place.",
      problems: "What to fix",
    },
    guides: {
      title: "Install guides",
      copy: (name: string) => `Copy the ${name} code`,
    },
  },
  de: {
    title: "Erste Schritte",
    allDone: "Alles bereit: Ihre Inhalte sind live.",
    dismiss: "Ausblenden",
    optional: "optional",
    stateDone: "Erledigt",
    stateOpen: "Noch offen",
    waiting: "Warte auf Ihren ersten Seitenaufruf…",
    seenOn: (host: string) => `Gesehen auf ${host}`,
    snippetLink: "Snippet holen und Seite prüfen",
    websiteLink: "Edge-Website hinzufügen",
    steps: {
      verified: {
        title: "E-Mail-Adresse bestätigen",
        next: "Öffnen Sie den Link aus unserer E-Mail.",
        done: "Bestätigt",
      },
      mapping: {
        title: "URL-Mapping anlegen",
        next: "Legen Sie unter URL Mappings Ihr erstes an.",
        done: "Angelegt",
      },
      snippet: {
        title: "Snippet in Ihre Website einbauen",
        next: "Fügen Sie es in Ihre Seiten ein.",
        done: "Gesehen",
      },
      firstView: {
        title: "Ersten Seitenaufruf zählen",
        next: "Wird innerhalb einer Minute nach dem ersten Seitenaufruf gezählt.",
        done: "Gezählt",
      },
      website: {
        title: "An der Edge ausliefern",
        next: "Liefern Sie Ihre Inhalte ohne Snippet unter Ihrem eigenen Hostnamen aus.",
        done: "Aktiv",
      },
    } satisfies Record<OnboardingStepKey, StepText>,
    check: {
      title: "Meine Seite prüfen",
      intro:
        "Dynamic Content lädt Ihre Seite und sucht nach dem Snippet, Ihrer Nutzer-ID und einem Mapping für ihre URL.",
      url: "Seiten-URL",
      button: "Meine Seite prüfen",
      checking: "Prüfe...",
      reachable: "Seite erreichbar",
      snippetFound: "Snippet gefunden",
      userIdMatches: "Ihre Nutzer-ID gesetzt",
      mappingMatches: "Ein Mapping bedient diese URL",
      yes: "ja",
      no: "nein",
      allGood: "Alles ist eingerichtet.",
      problems: "Was zu tun ist",
    },
    guides: {
      title: "Einbauanleitungen",
      copy: (name: string) => `Code für ${name} kopieren`,
    },
  },
} satisfies Record<GettingStartedLanguage, unknown>;
