/**
 * The DNS TXT record that proves a website, each part with a copy button: to add for a pending claim, to keep for a
 * proven one whose daily check fails.
 */
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
      {website.status === "pending" ? (
        <p className="text-sm">
          Prove that <span className="font-medium">{website.hostname}</span> is yours: add this TXT record at your DNS
          provider, then check it. Until then nothing is served for it. The claim lapses on{" "}
          {formatDayTime(website.expiresAt)}.
        </p>
      ) : (
        <p className="text-sm">
          Our daily check no longer finds the record that proves <span className="font-medium">{website.hostname}</span>
          . Keep this TXT record at your DNS provider: after 3 failed daily checks in a row your claim ends and nothing
          is served for it.
        </p>
      )}
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
