/**
 * @module The SMTP screen's labels added by issue 39, English and German, as `components/usage-chart.tsx` keeps its
 * own: SPEC.md's SMTP screen is English, so every part takes `lang` and defaults to "en".
 */
export const SMTP_CONFIG_TEXT = {
  en: {
    testTo: "Send test mail to",
    testToHint:
      "Optional. Saving first connects, upgrades to TLS and logs in; with an address it also sends a test mail.",
    remove: "Remove SMTP configuration",
    removeTitle: "Remove the SMTP configuration?",
    removeDescription:
      "Mail is then sent by MailChannels when its key is set, otherwise it is only printed to the Worker's log.",
    removeConfirm: "Remove",
    cancel: "Cancel",
  },
  de: {
    testTo: "Testmail senden an",
    testToHint:
      "Optional. Beim Speichern wird zuerst verbunden, auf TLS umgestellt und angemeldet; mit einer Adresse wird auch eine Testmail gesendet.",
    remove: "SMTP-Konfiguration entfernen",
    removeTitle: "SMTP-Konfiguration entfernen?",
    removeDescription:
      "Mails gehen dann über MailChannels, wenn sein Schlüssel gesetzt ist, sonst werden sie nur ins Log des Workers geschrieben.",
    removeConfirm: "Entfernen",
    cancel: "Abbrechen",
  },
} as const;

export type SmtpConfigLanguage = keyof typeof SMTP_CONFIG_TEXT;
