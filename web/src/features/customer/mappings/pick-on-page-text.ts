/**
 * @module "Pick on page"'s labels (docs/placement.md), English and German, as placement-health-text.ts keeps its
 * own: the customer's dashboard is English, so the picker takes `lang` and defaults to "en".
 */
export type PickOnPageLanguage = "en" | "de";

export const PICK_ON_PAGE_TEXT = {
  en: {
    button: "Pick on page",
    close: "Close page",
    frameTitle: "Pick on page",
    urlFirst: "Enter the page URL first.",
    hint: "Click the element the content belongs to. The content shows where the position puts it.",
    checking: "Checking the selector on other pages of this prefix…",
    noOtherPages: "No other page under this prefix has had a view yet to check the selector on.",
    notChecked: "The selector could not be checked on other pages of this prefix.",
    found: (found: number, checked: number) =>
      `Found on ${found} of ${checked} other ${checked === 1 ? "page" : "pages"}.`,
    notFoundOn: "Not found on:",
    unchecked: (n: number) => `${n} could not be checked: the page could not be loaded.`,
  },
  de: {
    button: "Auf der Seite wählen",
    close: "Seite schließen",
    frameTitle: "Auf der Seite wählen",
    urlFirst: "Bitte zuerst die URL der Seite eingeben.",
    hint: "Klicken Sie auf das Element, zu dem der Inhalt gehört. Der Inhalt erscheint dort, wo die Position ihn platziert.",
    checking: "Der Selektor wird auf anderen Seiten dieses Präfixes geprüft…",
    noOtherPages:
      "Unter diesem Präfix wurde noch keine andere Seite aufgerufen, auf der der Selektor geprüft werden könnte.",
    notChecked: "Der Selektor konnte auf anderen Seiten dieses Präfixes nicht geprüft werden.",
    found: (found: number, checked: number) =>
      `Auf ${found} von ${checked} ${checked === 1 ? "anderen Seite" : "anderen Seiten"} gefunden.`,
    notFoundOn: "Nicht gefunden auf:",
    unchecked: (n: number) =>
      `${n} ${n === 1 ? "konnte" : "konnten"} nicht geprüft werden: Die Seite ließ sich nicht laden.`,
  },
} satisfies Record<PickOnPageLanguage, unknown>;
