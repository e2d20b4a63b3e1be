/**
 * The DNS TXT record that proves a website, each part with a copy button: to add for a pending claim, to keep for a
 * proven one whose daily check fails. English by default, German with `lang="de"` (website-status-text.ts).
 */
import type { Website } from "#contract/responses";
import { CopyButton } from "@/components/copy-button";
import { ENGLISH_COPY, GERMAN_COPY } from "@/lib/clipboard";
import { formatDayTime } from "@/lib/format-date";
import { WEBSITE_STATUS_TEXT, type WebsiteStatusLanguage } from "./website-status-text";

function RecordPart({ label, value, lang }: { label: string; value: string; lang: WebsiteStatusLanguage }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <dt className="w-14 text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 flex-1 font-mono text-sm break-all">{value}</dd>
      <CopyButton
        text={value}
        label={WEBSITE_STATUS_TEXT[lang].record.copy(label)}
        messages={lang === "de" ? GERMAN_COPY : ENGLISH_COPY}
      />
    </div>
  );
}

export function VerificationRecord({ website, lang = "en" }: { website: Website; lang?: WebsiteStatusLanguage }) {
  const { verification } = website;
  const text = WEBSITE_STATUS_TEXT[lang].record;
  return (
    <section aria-label={text.region} className="space-y-3 rounded-md border border-primary/40 bg-primary/5 p-4">
      <p className="text-sm">
        {website.status === "pending"
          ? text.pendingIntro(website.hostname, formatDayTime(website.expiresAt))
          : text.failingIntro(website.hostname)}
      </p>
      <dl className="space-y-2">
        <RecordPart label={text.parts.type} value="TXT" lang={lang} />
        <RecordPart label={text.parts.name} value={verification.name} lang={lang} />
        <RecordPart label={text.parts.value} value={verification.value} lang={lang} />
      </dl>
      {website.checkProblem && (
        <p className="text-sm text-muted-foreground">
          {text.lastCheck(formatDayTime(website.checkedAt), website.checkProblem)}
        </p>
      )}
    </section>
  );
}
