/**
 * @module The experiment screens' labels (docs/experiments.md), English and German, as `components/usage-chart.tsx`
 * keeps its own: the customer's dashboard is English, so every part takes `lang` and defaults to "en".
 */
import type { SegmentDimension } from "#contract/experiments";
import type { ExperimentLanguage } from "./experiment-sentence";

export const EXPERIMENT_TEXT = {
  en: {
    // The editor, in the add form and the edit dialog.
    section: "Experiment (optional)",
    sectionRunning: "Experiment (running)",
    run: "Run an experiment",
    intro:
      "Visitors are split between the variants by their weights. The first variant is the control: it shows the mapping's HTML content.",
    control: "Control",
    controlContent: "Shows the mapping's HTML content.",
    variant: (n: number) => `Variant ${n}`,
    key: "Key",
    weight: "Weight (%)",
    html: "HTML content",
    keyOf: (n: number) => `Key of variant ${n}`,
    weightOf: (n: number) => `Weight of variant ${n}`,
    htmlOf: (n: number) => `HTML content of variant ${n}`,
    addVariant: "Add variant",
    remove: "Remove",
    removeVariant: (key: string) => `Remove variant ${key || "without a key"}`,
    weightsTotal: (total: number) => `Weights add up to ${total} %.`,
    goals: "Goals",
    goalsPlaceholder: "signup, checkout",
    goalsHint: "Comma separated: the names your page reports with dynamicContent.goal(name).",
    stop: "Stop experiment",
    stopping: "The experiment ends when you save; the mapping keeps its own HTML content.",
    keepRunning: "Keep running",
    // The row action and the results dialog.
    results: "Experiment results",
    audienceResults: "Audience results",
    audienceIntro: (share: number) =>
      `${share} % of the audience is held out and sees the URL's mapping without an audience: "holdout" is what that brings, "audience" what the audience's content brings.`,
    segment: "Visitors",
    segments: {
      all: "All visitors",
      device: "By device",
      country: "By country",
      referrer: "By referrer",
    } satisfies Record<SegmentDimension | "all", string>,
    segmentHeading: (value: string, visitors: string) => `${value}: ${visitors} visitors`,
    segmentOther: "Other",
    segmentUnknown: "Unknown",
    noSegments: "No visitors counted by segment yet.",
    runningSince: (date: string) => `Running since ${date}.`,
    goal: "Goal",
    chart: (goal: string) => `Conversion rate by variant for ${goal}`,
    bar: (key: string, rate: string, interval: string | null) =>
      `${key}: ${rate}${interval ? ` (95 % interval ${interval})` : ""}`,
    columns: ["Variant", "Visitors", "Conversions", "Rate", "Uplift", "95 % CI", "Chance to beat control"],
    controlMark: "(control)",
    to: "to",
    srm: (p: string) =>
      `The split of visitors does not match the weights (p ${p}): check the setup before trusting these results.`,
    concentrated:
      "Much of a variant's visitors or conversions came from one network address: these results may be skewed or forged.",
    sampleFull: (most: string) =>
      `Your experiments have counted ${most} visitors, the most your plan keeps: new visitors are not counted until ended experiments are purged, 90 days after they end.`,
    makePermanent: (key: string) => `Make ${key} permanent`,
    confirmTitle: (key: string) => `Make ${key} permanent?`,
    confirmDescription: (key: string) =>
      `${key}'s content becomes the mapping's content and the experiment ends. The change is recorded in the history.`,
    cancel: "Cancel",
    promoted: (key: string) => `${key} is now the mapping's content`,
    loadFailed: "The results could not be loaded.",
    // The preview dialog.
    previewVariant: "Variant",
  },
  de: {
    section: "Experiment (optional)",
    sectionRunning: "Experiment (läuft)",
    run: "Experiment durchführen",
    intro:
      "Die Besucher werden nach den Gewichten auf die Varianten verteilt. Die erste Variante ist die Kontrolle: Sie zeigt den HTML-Inhalt des Mappings.",
    control: "Kontrolle",
    controlContent: "Zeigt den HTML-Inhalt des Mappings.",
    variant: (n: number) => `Variante ${n}`,
    key: "Schlüssel",
    weight: "Gewicht (%)",
    html: "HTML-Inhalt",
    keyOf: (n: number) => `Schlüssel von Variante ${n}`,
    weightOf: (n: number) => `Gewicht von Variante ${n}`,
    htmlOf: (n: number) => `HTML-Inhalt von Variante ${n}`,
    addVariant: "Variante hinzufügen",
    remove: "Entfernen",
    removeVariant: (key: string) => `Variante ${key || "ohne Schlüssel"} entfernen`,
    weightsTotal: (total: number) => `Die Gewichte ergeben ${total} %.`,
    goals: "Ziele",
    goalsPlaceholder: "signup, checkout",
    goalsHint: "Durch Kommas getrennt: die Namen, die Ihre Seite mit dynamicContent.goal(name) meldet.",
    stop: "Experiment beenden",
    stopping: "Das Experiment endet beim Speichern; das Mapping behält seinen eigenen HTML-Inhalt.",
    keepRunning: "Weiterlaufen lassen",
    results: "Experimentergebnisse",
    audienceResults: "Zielgruppenergebnisse",
    audienceIntro: (share: number) =>
      `${share} % der Zielgruppe werden zurückgehalten und sehen das Mapping der URL ohne Zielgruppe: „holdout“ ist, was das bringt, „audience“, was der Inhalt der Zielgruppe bringt.`,
    segment: "Besucher",
    segments: {
      all: "Alle Besucher",
      device: "Nach Gerät",
      country: "Nach Land",
      referrer: "Nach Herkunft",
    } satisfies Record<SegmentDimension | "all", string>,
    segmentHeading: (value: string, visitors: string) => `${value}: ${visitors} Besucher`,
    segmentOther: "Andere",
    segmentUnknown: "Unbekannt",
    noSegments: "Noch keine Besucher nach Segment gezählt.",
    runningSince: (date: string) => `Läuft seit ${date}.`,
    goal: "Ziel",
    chart: (goal: string) => `Konversionsrate je Variante für ${goal}`,
    bar: (key: string, rate: string, interval: string | null) =>
      `${key}: ${rate}${interval ? ` (95-%-Intervall ${interval})` : ""}`,
    columns: [
      "Variante",
      "Besucher",
      "Konversionen",
      "Rate",
      "Veränderung",
      "95-%-KI",
      "Wahrscheinlichkeit, die Kontrolle zu schlagen",
    ],
    controlMark: "(Kontrolle)",
    to: "bis",
    srm: (p: string) =>
      `Die Aufteilung der Besucher entspricht nicht den Gewichten (p ${p}): Prüfen Sie die Einrichtung, bevor Sie diesen Ergebnissen vertrauen.`,
    concentrated:
      "Ein großer Teil der Besucher oder Conversions einer Variante kam von einer einzigen Netzwerkadresse: Diese Ergebnisse können verzerrt oder gefälscht sein.",
    sampleFull: (most: string) =>
      `Ihre Experimente haben ${most} Besucher gezählt, so viele, wie Ihr Tarif behält: Neue Besucher werden erst gezählt, wenn beendete Experimente 90 Tage nach ihrem Ende gelöscht sind.`,
    makePermanent: (key: string) => `${key} dauerhaft übernehmen`,
    confirmTitle: (key: string) => `${key} dauerhaft übernehmen?`,
    confirmDescription: (key: string) =>
      `Der Inhalt von ${key} wird zum Inhalt des Mappings, und das Experiment endet. Die Änderung wird im Verlauf festgehalten.`,
    cancel: "Abbrechen",
    promoted: (key: string) => `${key} ist jetzt der Inhalt des Mappings`,
    loadFailed: "Die Ergebnisse konnten nicht geladen werden.",
    previewVariant: "Variante",
  },
} as const satisfies Record<ExperimentLanguage, unknown>;

export type ExperimentText = (typeof EXPERIMENT_TEXT)[ExperimentLanguage];
