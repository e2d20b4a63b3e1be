/**
 * @module The asset origin form's labels (docs/edge-delivery.md, "Assets from another host"), English and German, as
 * website-status-text.ts keeps the status panel's: the customer's screens are English, so the form takes `lang`.
 */
import type { WebsiteStatusLanguage } from "./website-status-text";

export const ASSET_ORIGIN_TEXT = {
  en: {
    title: "Assets",
    toggle: "Serve assets from another host",
    field: "Serve assets from",
    hint: "Images, scripts, styles and media of your pages load from this host instead of through Dynamic Content: fewer requests to pay for. It must serve the same paths over https, with CORS for fonts and module scripts.",
    save: "Save",
    saving: "Saving...",
    current: (origin: string | null) => (origin ? `Assets from ${origin}` : "Assets through Dynamic Content"),
  },
  de: {
    title: "Dateien",
    toggle: "Dateien von einem anderen Host laden",
    field: "Dateien laden von",
    hint: "Bilder, Skripte, Stylesheets und Medien Ihrer Seiten werden von diesem Host geladen statt über Dynamic Content: weniger abgerechnete Anfragen. Er muss dieselben Pfade über https ausliefern, mit CORS für Schriften und Modul-Skripte.",
    save: "Speichern",
    saving: "Wird gespeichert...",
    current: (origin: string | null) => (origin ? `Dateien von ${origin}` : "Dateien über Dynamic Content"),
  },
} satisfies Record<WebsiteStatusLanguage, unknown>;
