/**
 * @module The website status panel's labels (docs/edge-delivery.md, "Your website's status"), English and German, as
 * getting-started-text.ts keeps its own: the customer's screens are English, so the panel takes `lang`, "en" by
 * default.
 */
import type { WebsiteStepState } from "#contract/responses";

export type WebsiteStatusLanguage = "en" | "de";
export type WebsiteStep = "dns" | "ownership" | "certificate";

interface StepText {
  title: string;
  /** The next step for each state: what the customer does now, or that nothing is left. */
  next: Record<WebsiteStepState, string>;
}

export const WEBSITE_STATUS_TEXT = {
  en: {
    title: "Website status",
    checkNow: "Check now",
    checking: "Checking...",
    loadError: "The status could not be checked. It is checked again in 20 seconds.",
    rechecking: "Checked again every 20 seconds while this page is open.",
    states: { done: "Done", waiting: "Waiting", failed: "Failed", unknown: "Not known yet", managed: "Managed" },
    sslStatus: (status: string) => `Cloudflare says: ${status}`,
    steps: {
      dns: {
        title: "DNS",
        next: {
          done: "Your hostname points at Dynamic Content.",
          waiting:
            "Point your hostname at Dynamic Content: a CNAME record to Dynamic Content's edge host (for the apex, CNAME flattening or ALIAS). DNS changes can take a few minutes.",
          failed: "Your hostname does not point at Dynamic Content.",
          unknown: "The DNS lookup could not be completed. It is tried again shortly.",
        },
      },
      ownership: {
        title: "Ownership",
        next: {
          done: "Proven by your TXT record. Keep it in place: it is checked every day.",
          waiting: "Add this TXT record at your DNS provider, then check it.",
          failed: "The TXT record is missing or changed. Put it back before your claim ends.",
          unknown: "The TXT record could not be checked. It is tried again shortly.",
        },
      },
      certificate: {
        title: "Certificate",
        next: {
          done: "The certificate is issued: visitors reach your website over HTTPS.",
          waiting: "Issued by Cloudflare once the hostname is proven and points at us (usually minutes).",
          failed: "The certificate could not be issued. Check that your DNS points at us, then contact support.",
          unknown: "Cloudflare did not answer. It is asked again shortly.",
        },
      },
    } satisfies Record<WebsiteStep, StepText>,
    managed: "Managed by Cloudflare once DNS points at us.",
    // The TXT record (verification-record.tsx).
    record: {
      region: "DNS record to add",
      parts: { type: "Type", name: "Name", value: "Value" },
      copy: (part: string) => `Copy TXT record ${part.toLowerCase()}`,
      pendingIntro: (hostname: string, lapses: string) =>
        `Prove that ${hostname} is yours: add this TXT record at your DNS provider, then check it. Until then nothing is served for it. The claim lapses on ${lapses}.`,
      failingIntro: (hostname: string) =>
        `Our daily check no longer finds the record that proves ${hostname}. Keep this TXT record at your DNS provider: after 3 failed daily checks in a row your claim ends and nothing is served for it.`,
      lastCheck: (at: string, problem: string) => `Last check ${at}: ${problem}`,
    },
  },
  de: {
    title: "Status der Website",
    checkNow: "Jetzt prüfen",
    checking: "Wird geprüft...",
    loadError: "Der Status konnte nicht geprüft werden. In 20 Sekunden wird erneut geprüft.",
    rechecking: "Wird alle 20 Sekunden neu geprüft, solange diese Seite offen ist.",
    states: {
      done: "Erledigt",
      waiting: "Ausstehend",
      failed: "Fehlgeschlagen",
      unknown: "Noch unbekannt",
      managed: "Automatisch",
    },
    sslStatus: (status: string) => `Cloudflare meldet: ${status}`,
    steps: {
      dns: {
        title: "DNS",
        next: {
          done: "Ihr Hostname zeigt auf Dynamic Content.",
          waiting:
            "Lassen Sie Ihren Hostnamen auf Dynamic Content zeigen: ein CNAME-Eintrag auf den Edge-Host von Dynamic Content (für die Apex-Domain CNAME-Flattening oder ALIAS). DNS-Änderungen können einige Minuten dauern.",
          failed: "Ihr Hostname zeigt nicht auf Dynamic Content.",
          unknown: "Die DNS-Abfrage konnte nicht abgeschlossen werden. Sie wird in Kürze wiederholt.",
        },
      },
      ownership: {
        title: "Inhaberschaft",
        next: {
          done: "Durch Ihren TXT-Eintrag nachgewiesen. Lassen Sie ihn bestehen: Er wird täglich geprüft.",
          waiting: "Legen Sie diesen TXT-Eintrag bei Ihrem DNS-Anbieter an und prüfen Sie ihn dann.",
          failed: "Der TXT-Eintrag fehlt oder wurde geändert. Stellen Sie ihn wieder her, bevor Ihr Anspruch endet.",
          unknown: "Der TXT-Eintrag konnte nicht geprüft werden. Es wird in Kürze erneut versucht.",
        },
      },
      certificate: {
        title: "Zertifikat",
        next: {
          done: "Das Zertifikat ist ausgestellt: Besucher erreichen Ihre Website über HTTPS.",
          waiting:
            "Wird von Cloudflare ausgestellt, sobald der Hostname nachgewiesen ist und auf uns zeigt (meist Minuten).",
          failed:
            "Das Zertifikat konnte nicht ausgestellt werden. Prüfen Sie, ob Ihr DNS auf uns zeigt, und wenden Sie sich dann an den Support.",
          unknown: "Cloudflare hat nicht geantwortet. Es wird in Kürze erneut gefragt.",
        },
      },
    } satisfies Record<WebsiteStep, StepText>,
    managed: "Wird von Cloudflare verwaltet, sobald Ihr DNS auf uns zeigt.",
    record: {
      region: "Anzulegender DNS-Eintrag",
      parts: { type: "Typ", name: "Name", value: "Wert" },
      copy: (part: string) => `TXT-Eintrag: ${part} kopieren`,
      pendingIntro: (hostname: string, lapses: string) =>
        `Weisen Sie nach, dass ${hostname} Ihnen gehört: Legen Sie diesen TXT-Eintrag bei Ihrem DNS-Anbieter an und prüfen Sie ihn dann. Bis dahin wird nichts dafür ausgeliefert. Der Anspruch verfällt am ${lapses}.`,
      failingIntro: (hostname: string) =>
        `Unsere tägliche Prüfung findet den Eintrag nicht mehr, der ${hostname} nachweist. Lassen Sie diesen TXT-Eintrag bei Ihrem DNS-Anbieter bestehen: Nach 3 fehlgeschlagenen täglichen Prüfungen in Folge endet Ihr Anspruch und es wird nichts mehr dafür ausgeliefert.`,
      lastCheck: (at: string, problem: string) => `Letzte Prüfung ${at}: ${problem}`,
    },
  },
} as const;
