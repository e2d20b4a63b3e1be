/**
 * @module The mappings list's selector health warning (docs/placement.md, "Selector health"), English and German as
 * audience-text.ts keeps its labels: the customer's dashboard is English, so it defaults to "en".
 */
export type PlacementHealthLanguage = "en" | "de";

export const PLACEMENT_HEALTH_TEXT = {
  en: {
    misses: (n: number) =>
      `The selector found no element on ${n} page ${n === 1 ? "view" : "views"} in the last 7 days: the content was not shown there.`,
  },
  de: {
    misses: (n: number) =>
      `Der Selektor fand in den letzten 7 Tagen bei ${n} ${n === 1 ? "Seitenaufruf" : "Seitenaufrufen"} kein Element: Der Inhalt wurde dort nicht angezeigt.`,
  },
} satisfies Record<PlacementHealthLanguage, unknown>;
