/**
 * @module The last mails that could not be sent (docs/decisions.md, "Issue 39: mail that fails is told"): nothing
 * while none failed; otherwise when, which mail, to whom (masked) and why, newest first. English and German, as
 * `components/usage-chart.tsx` keeps its labels; the dashboard is English, so `lang` defaults to "en".
 */
import type { MailFailure, MailKind } from "#contract/responses";
import { formatGermanDayTime } from "@/lib/format-date";

const TEXT = {
  en: {
    title: "Mail that could not be sent",
    intro: "The newest failures first. Check the SMTP configuration, or remove it to send by MailChannels or the log.",
    columns: ["When", "Mail", "To", "Why"],
    kinds: {
      verification: "Verification link",
      "api-key": "API key",
      "login-code": "Login code",
      "sign-in-link": "Sign-in link",
      "admin-login-notice": "Admin login notice",
      website: "Website notice",
      test: "Test mail",
    },
  },
  de: {
    title: "Mails, die nicht gesendet werden konnten",
    intro:
      "Die neuesten zuerst. Prüfen Sie die SMTP-Konfiguration, oder entfernen Sie sie, um über MailChannels oder das Log zu senden.",
    columns: ["Wann", "Mail", "An", "Warum"],
    kinds: {
      verification: "Bestätigungslink",
      "api-key": "API-Key",
      "login-code": "Login-Code",
      "sign-in-link": "Anmeldelink",
      "admin-login-notice": "Hinweis zur Admin-Anmeldung",
      website: "Website-Hinweis",
      test: "Testmail",
    },
  },
} satisfies Record<string, { kinds: Record<MailKind, string> } & Record<string, unknown>>;

export function MailFailuresNotice({ failures, lang = "en" }: { failures: MailFailure[]; lang?: keyof typeof TEXT }) {
  if (failures.length === 0) return null;
  const text = TEXT[lang];
  return (
    <div role="alert" aria-label={text.title} className="space-y-2 rounded-md border p-4 text-sm">
      <p className="font-medium">{text.title}</p>
      <p className="text-muted-foreground">{text.intro}</p>
      <div className="overflow-x-auto">
        <table className="w-full text-left">
          <thead>
            <tr>
              {text.columns.map((column) => (
                <th key={column} className="pr-4 font-medium">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {failures.map((failure, i) => (
              <tr key={`${failure.at}-${i}`}>
                <td className="whitespace-nowrap pr-4">{formatGermanDayTime(failure.at)}</td>
                <td className="whitespace-nowrap pr-4">{text.kinds[failure.kind] ?? failure.kind}</td>
                <td className="whitespace-nowrap pr-4">{failure.recipient}</td>
                <td className="break-all">{failure.error}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
