import { Link } from "react-router-dom";
import type { Mapping } from "#contract/responses";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDay, formatDayTime } from "@/lib/format-date";
import { MappingRowActions } from "./mapping-row-actions";
import { scheduleText } from "./schedule-text";
import { AUDIENCE_TEXT } from "./audience-text";
import { WarningMark } from "@/components/warning-mark";
import { TooltipProvider } from "@/components/ui/tooltip";
import { PLACEMENT_HEALTH_TEXT, type PlacementHealthLanguage } from "./placement-health-text";

interface MappingsTableProps {
  rows: Mapping[];
  showActions: boolean;
}

export function MappingsTable({ rows, showActions }: MappingsTableProps) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>URL</TableHead>
          <TableHead>HTML Content</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Created</TableHead>
          <TableHead>Published</TableHead>
          {showActions && <TableHead>Actions</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.length === 0 ? (
          <TableEmptyRow colSpan={showActions ? 6 : 5}>
            <p>No mappings found.</p>
            {!showActions && (
              <Link to="/register" className="mt-2 inline-block text-primary underline-offset-4 hover:underline">
                Register to get an API key
              </Link>
            )}
          </TableEmptyRow>
        ) : (
          rows.map((mapping) => (
            <TableRow key={mapping.id}>
              <TableCell className="max-w-[240px] font-medium break-all">
                <span>{mapping.url}</span>
                <PlacementWarning mapping={mapping} />
                <AudienceNote mapping={mapping} />
              </TableCell>
              <TableCell className="max-w-[320px]">
                <code className="block truncate text-xs text-muted-foreground" title={mapping.htmlContent}>
                  {mapping.htmlContent}
                </code>
              </TableCell>
              <TableCell>
                {mapping.publishedAt ? (
                  <Badge variant="success">Published</Badge>
                ) : (
                  <Badge variant="secondary">Draft</Badge>
                )}
                <ScheduleNote mapping={mapping} />
              </TableCell>
              <TableCell className="whitespace-nowrap">{formatDay(mapping.createdAt)}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDay(mapping.publishedAt)}</TableCell>
              {showActions && (
                <TableCell>
                  <MappingRowActions mapping={mapping} />
                </TableCell>
              )}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}

/** The pending schedule under the status, with its exact time on hover. */
function ScheduleNote({ mapping }: { mapping: Mapping }) {
  const text = scheduleText(mapping);
  if (!text) return null;
  return (
    <p
      className="mt-1 text-xs whitespace-nowrap text-muted-foreground"
      title={formatDayTime(mapping.publishAt ?? mapping.unpublishAt)}
    >
      {text}
    </p>
  );
}

/**
 * Under the URL, a mapping for an audience names it and its priority (docs/audiences.md); a mapping for everyone
 * shows nothing more, as before audiences.
 */
function AudienceNote({ mapping }: { mapping: Mapping }) {
  if (!mapping.audience) return null;
  const text = AUDIENCE_TEXT.en;
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2 text-xs font-normal text-muted-foreground">
      <Badge variant="outline" className="break-normal">
        {text.audienceBadge(mapping.audience.name)}
      </Badge>
      {mapping.priority !== undefined && <span className="whitespace-nowrap">{text.priorityOf(mapping.priority)}</span>}
    </p>
  );
}

/** Beside the URL, a mapping whose selector missed in the last 7 days is marked; any other shows nothing more. */
function PlacementWarning({ mapping, lang = "en" }: { mapping: Mapping; lang?: PlacementHealthLanguage }) {
  if (!mapping.placementMisses) return null;
  return (
    <TooltipProvider delayDuration={200}>
      {" "}
      <WarningMark text={PLACEMENT_HEALTH_TEXT[lang].misses(mapping.placementMisses)} className="text-yellow-600" />
    </TooltipProvider>
  );
}
