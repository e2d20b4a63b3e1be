/**
 * @module The audience screens' labels (docs/audiences.md), English and German, as experiment-text.ts keeps the
 * experiments': the customer's dashboard is English, so every part takes `lang` and defaults to "en".
 */
import type { Continent, Device, VisitorKind } from "#contract/audience-values";
import type { ReferrerType } from "#contract/referrers";

export type AudienceLanguage = "en" | "de";

export const AUDIENCE_TEXT = {
  en: {
    // The editor, in the add form and the edit dialog.
    section: "Audience (optional)",
    intro:
      "Show this mapping only to visitors who meet every condition you set (one value of a list is enough). Visitors it does not match get the URL's mapping without an audience.",
    name: "Audience name",
    namePlaceholder: "DACH mobile from search",
    country: "Countries",
    countryPlaceholder: "Type a country name or code",
    countrySuggestions: "Matching countries",
    continent: "Continents",
    eu: "European Union",
    euAny: "Any",
    euIn: "In the EU",
    euOut: "Outside the EU",
    device: "Device",
    referrer: "Arriving from",
    visitor: "Visitor",
    language: "Languages",
    languagePlaceholder: "de, pt-BR",
    utmSource: "UTM source",
    utmMedium: "UTM medium",
    utmCampaign: "UTM campaign",
    query: "Query parameters",
    queryPlaceholder: "plan=pro, or ref for any value",
    tagsHint: "Press Enter or type a comma after each value.",
    priority: "Priority",
    priorityHint: "Among this URL's audience mappings, the lowest number is tried first.",
    remove: (value: string) => `Remove ${value}`,
    holdout: "Holdout (%)",
    holdoutGoals: "Goals the holdout measures",
    holdoutGoalsPlaceholder: "signup",
    holdoutHint:
      "A holdout shows this share of the audience the URL's mapping without an audience instead, to measure what the audience's content brings on your goals. 0 or empty: nobody is held out.",
    // The mappings list, the URL tester and the preview.
    audienceBadge: (name: string) => `Audience: ${name}`,
    priorityOf: (n: number) => `Priority ${n}`,
    testerSection: "Visitor attributes (optional)",
    testerIntro:
      "Test as a visitor with these attributes; UTM and query parameters come from the page URL. Left out: a new desktop visitor arriving directly, with no country or language known.",
    testerCountry: "Country",
    testerContinent: "Continent",
    testerLanguage: "Language",
    testerLanguagePlaceholder: "de-AT",
    unknown: "Unknown",
    answersFor: (name: string) => `For the audience ${name}`,
    previewAudience: (name: string) =>
      `This mapping is for the audience ${name}: the link shows its content to whoever opens it, whatever their country, device or referrer.`,
  },
  de: {
    section: "Zielgruppe (optional)",
    intro:
      "Dieses Mapping nur Besuchern zeigen, die jede gesetzte Bedingung erfüllen (ein Wert einer Liste genügt). Alle anderen erhalten das Mapping der URL ohne Zielgruppe.",
    name: "Name der Zielgruppe",
    namePlaceholder: "DACH mobil aus der Suche",
    country: "Länder",
    countryPlaceholder: "Land oder Ländercode eingeben",
    countrySuggestions: "Passende Länder",
    continent: "Kontinente",
    eu: "Europäische Union",
    euAny: "Beliebig",
    euIn: "In der EU",
    euOut: "Außerhalb der EU",
    device: "Gerät",
    referrer: "Herkunft",
    visitor: "Besucher",
    language: "Sprachen",
    languagePlaceholder: "de, pt-BR",
    utmSource: "UTM-Quelle",
    utmMedium: "UTM-Medium",
    utmCampaign: "UTM-Kampagne",
    query: "Query-Parameter",
    queryPlaceholder: "plan=pro, oder ref für jeden Wert",
    tagsHint: "Nach jedem Wert Enter drücken oder ein Komma eingeben.",
    priority: "Priorität",
    priorityHint: "Unter den Zielgruppen-Mappings dieser URL wird die niedrigste Zahl zuerst geprüft.",
    remove: (value: string) => `${value} entfernen`,
    holdout: "Kontrollgruppe (%)",
    holdoutGoals: "Ziele, die die Kontrollgruppe misst",
    holdoutGoalsPlaceholder: "signup",
    holdoutHint:
      "Eine Kontrollgruppe zeigt diesem Anteil der Zielgruppe stattdessen das Mapping der URL ohne Zielgruppe, um zu messen, was der Inhalt der Zielgruppe für Ihre Ziele bringt. 0 oder leer: niemand wird zurückgehalten.",
    audienceBadge: (name: string) => `Zielgruppe: ${name}`,
    priorityOf: (n: number) => `Priorität ${n}`,
    testerSection: "Besuchermerkmale (optional)",
    testerIntro:
      "Als Besucher mit diesen Merkmalen testen; UTM- und Query-Parameter stammen aus der Seiten-URL. Ohne Angabe: ein neuer Desktop-Besucher, der direkt kommt, ohne bekanntes Land oder bekannte Sprache.",
    testerCountry: "Land",
    testerContinent: "Kontinent",
    testerLanguage: "Sprache",
    testerLanguagePlaceholder: "de-AT",
    unknown: "Unbekannt",
    answersFor: (name: string) => `Für die Zielgruppe ${name}`,
    previewAudience: (name: string) =>
      `Dieses Mapping gilt für die Zielgruppe ${name}: Der Link zeigt seinen Inhalt jedem, der ihn öffnet, unabhängig von Land, Gerät oder Herkunft.`,
  },
} as const;

/** The choices' labels, by value. */
export const CHOICE_TEXT = {
  en: {
    device: { mobile: "Mobile", tablet: "Tablet", desktop: "Desktop" } satisfies Record<Device, string>,
    referrer: {
      search: "Search engine",
      social: "Social network",
      ai: "AI assistant",
      email: "Email",
      direct: "Direct",
      other: "Other website",
    } satisfies Record<ReferrerType, string>,
    visitor: { new: "New", returning: "Returning" } satisfies Record<VisitorKind, string>,
    continent: {
      AF: "Africa",
      AN: "Antarctica",
      AS: "Asia",
      EU: "Europe",
      NA: "North America",
      OC: "Oceania",
      SA: "South America",
    } satisfies Record<Continent, string>,
  },
  de: {
    device: { mobile: "Smartphone", tablet: "Tablet", desktop: "Desktop" } satisfies Record<Device, string>,
    referrer: {
      search: "Suchmaschine",
      social: "Soziales Netzwerk",
      ai: "KI-Assistent",
      email: "E-Mail",
      direct: "Direkt",
      other: "Andere Website",
    } satisfies Record<ReferrerType, string>,
    visitor: { new: "Neu", returning: "Wiederkehrend" } satisfies Record<VisitorKind, string>,
    continent: {
      AF: "Afrika",
      AN: "Antarktis",
      AS: "Asien",
      EU: "Europa",
      NA: "Nordamerika",
      OC: "Ozeanien",
      SA: "Südamerika",
    } satisfies Record<Continent, string>,
  },
};
