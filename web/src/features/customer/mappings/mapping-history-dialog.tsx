/**
 * @module A mapping's history (docs/history.md): every version, newest first, who made it and when, what changed
 * from the version before (a line diff of the HTML, and the other fields side by side), and Restore. Loaded as a
 * chunk of its own when first opened. Everything shown is text.
 */
import { diffLines } from "diff";
import type { Mapping } from "#contract/responses";
import { HISTORY_PRUNED_NOTE, type MappingVersion } from "#contract/versions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { formatDayTime } from "@/lib/format-date";
import { cn } from "@/lib/utils";
import { useMappingVersions, useRestoreVersion } from "@/queries/mappings";

const AUTHORS = { customer: "You", admin: "An admin", schedule: "The schedule" } as const;

/** The fields besides the HTML that a version sets, as text, for comparing one version with the one before. */
function settings(v: MappingVersion): [string, string][] {
  const placement =
    v.placement.position === "body-start" ? "top of <body>" : `${v.placement.position} ${v.placement.selector}`;
  return [
    ["URL", v.url],
    ["State", v.publishedAt ? "Published" : "Draft"],
    ["Placement", placement],
    ["SEO", Object.keys(v.seo).length > 0 ? JSON.stringify(v.seo) : "none"],
    ["Publish at", formatDayTime(v.publishAt)],
    ["Unpublish at", formatDayTime(v.unpublishAt)],
  ];
}

function HtmlDiff({ before, after }: { before: string; after: string }) {
  return (
    <pre className="max-h-64 overflow-auto rounded-md border bg-muted/40 p-2 text-xs whitespace-pre-wrap">
      {diffLines(before, after).map((part, i) => (
        <span
          key={i}
          className={cn(
            part.added && "bg-green-100 text-green-900",
            part.removed && "bg-red-100 text-red-900 line-through",
          )}
        >
          {part.added ? "+ " : part.removed ? "- " : ""}
          {part.value}
        </span>
      ))}
    </pre>
  );
}

function VersionEntry({
  version,
  previous,
  current,
  onRestore,
  restoring,
}: {
  version: MappingVersion;
  previous: MappingVersion | undefined;
  current: boolean;
  onRestore: () => void;
  restoring: boolean;
}) {
  const before = previous ? new Map(settings(previous)) : undefined;
  const changed = settings(version).filter(([field, value]) => before?.get(field) !== value);
  return (
    <li className="space-y-2 border-b pb-4" aria-label={`Version ${version.version}`}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Version {version.version}</span>
        {current && <Badge variant="secondary">Current</Badge>}
        <span className="text-muted-foreground">
          {formatDayTime(version.createdAt)} · {version.changedBy ? AUTHORS[version.changedBy] : "Before history"}
        </span>
        {!current && (
          <Button size="sm" variant="outline" className="ml-auto" disabled={restoring} onClick={onRestore}>
            Restore
          </Button>
        )}
      </div>
      {changed.length > 0 && (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-3 text-xs">
          {changed.map(([field, value]) => (
            <div key={field} className="contents">
              <dt className="text-muted-foreground">{field}</dt>
              <dd className="font-mono break-all">{before ? `${before.get(field)} → ${value}` : value}</dd>
            </div>
          ))}
        </dl>
      )}
      <HtmlDiff before={previous?.htmlContent ?? ""} after={version.htmlContent} />
    </li>
  );
}

export function MappingHistoryDialog({
  mapping,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  mapping: Mapping;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const versions = useMappingVersions(mapping.id, open);
  const restore = useRestoreVersion(mapping.id);
  const rows = versions.data?.rows ?? [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus} className="max-h-[90vh] max-w-3xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>History</DialogTitle>
          <DialogDescription className="break-all">{mapping.url}</DialogDescription>
        </DialogHeader>
        {versions.isPending ? (
          <Spinner />
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">No versions recorded yet.</p>
        ) : (
          <ol className="space-y-4">
            {rows.map((version, i) => (
              <VersionEntry
                key={version.version}
                version={version}
                previous={rows[i + 1]}
                current={i === 0}
                restoring={restore.isPending}
                onRestore={() => restore.mutate(version.version)}
              />
            ))}
          </ol>
        )}
        {/* Versions are numbered from 1 without gaps, so fewer than the newest number means older ones were pruned. */}
        {rows.length > 0 && rows[0]!.version > versions.data!.total && (
          <p className="text-sm text-muted-foreground">{HISTORY_PRUNED_NOTE}</p>
        )}
      </DialogContent>
    </Dialog>
  );
}
