/** The DNS TXT record that proves a pending website, each part with a copy button. */
import type { Website } from "#contract/responses";
import { CopyButton } from "@/components/copy-button";
import { formatDayTime } from "@/lib/format-date";

function RecordPart({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <dt className="w-14 text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 flex-1 font-mono text-sm break-all">{value}</dd>
      <CopyButton text={value} label={`Copy TXT record ${label.toLowerCase()}`} />
    </div>
  );
}

export function VerificationRecord({ website }: { website: Website }) {
  const { verification } = website;
  return (
    <section aria-label="DNS record to add" className="space-y-3 rounded-md border border-primary/40 bg-primary/5 p-4">
      <p className="text-sm">
        Prove that <span className="font-medium">{website.hostname}</span> is yours: add this TXT record at your DNS
        provider, then check it. Until then nothing is served for it. The claim lapses on{" "}
        {formatDayTime(website.expiresAt)}.
      </p>
      <dl className="space-y-2">
        <RecordPart label="Type" value="TXT" />
        <RecordPart label="Name" value={verification.name} />
        <RecordPart label="Value" value={verification.value} />
      </dl>
      {website.checkProblem && (
        <p className="text-sm text-muted-foreground">
          Last check {formatDayTime(website.checkedAt)}: {website.checkProblem}
        </p>
      )}
    </section>
  );
}
