/**
 * @module A bulk import of mappings (docs/bulk.md): every row checked first (as its own create or PATCH would be,
 * plus the plan's limits over the whole file), answered with a report per row, and applied all or nothing, in one
 * transaction. A row with an `id` changes that mapping; a row without one changes the newest mapping at its URL,
 * or adds one.
 */
import { z } from "zod";
import type { ImportReport, ImportRowReport } from "#contract/bulk";
import { formatNumber } from "#contract/input-caps";
import { normalizeUrl } from "#contract/normalize-url";
import { resolvePublication } from "#contract/publication";
import { mappingImportRow, type MappingImportRow } from "#contract/schemas";
import type { Db } from "../db/client";
import type { User } from "../db/schema";
import { eventsLimitReached, roomForMappings, websitesLimitReached } from "../models/limits";
import { contentBudgetOf, contentGrowth, contentRefusal, rowBytes } from "../models/content-budget";
import { liveAudienceMappingsAt } from "../models/audience-mappings";
import {
  AUDIENCE_MAPPINGS_FULL,
  AUDIENCE_MAPPINGS_MAX_BYTES,
  AUDIENCE_MAPPINGS_PER_URL_MAX,
  AUDIENCE_MAPPINGS_TOO_LARGE,
} from "#contract/audiences";
import {
  applyImport,
  mappingsWithIds,
  newestMappingsAt,
  placeKey,
  type ImportedMapping,
  type ImportTarget,
} from "../models/mapping-import";
import { publishedNow, storedExtras } from "../models/mappings";
import { hostOf } from "#contract/normalize-url";
import { hostsWithMappings } from "../models/usage";
import type { ImportRecord } from "./import-file";

interface CheckedRow {
  report: ImportRowReport;
  mapping?: ImportedMapping;
  /** The mapping it changes. */
  target?: ImportTarget;
}

const refuse = (report: ImportRowReport, ...errors: string[]) => {
  report.action = "refuse";
  report.errors = [...(report.errors ?? []), ...errors];
};

const issueText = (issue: z.core.$ZodIssue) =>
  issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;

const urlOf = (record: unknown) => {
  const url = (record as { url?: unknown } | null)?.url;
  return typeof url === "string" ? url : null;
};

/** The rows that read and parse, with their normalised URLs. */
function parseRows(records: ImportRecord[], user: User) {
  return records.map((read, i) => {
    const report: ImportRowReport = { row: i + 1, action: "add", url: null };
    if ("errors" in read) {
      refuse(report, ...read.errors);
      return { report };
    }
    report.url = urlOf(read.record);
    const parsed = mappingImportRow.safeParse(read.record);
    if (!parsed.success) {
      refuse(report, ...parsed.error.issues.map(issueText));
      return { report };
    }
    return { report, row: parsed.data, normalizedUrl: normalizeUrl(parsed.data.url, user.ignoredParameters) };
  });
}

type ParsedRow = ReturnType<typeof parseRows>[number];

/** Where a row without an id lands: its URL, and its audience (by name) or none. */
const placeOf = (r: ParsedRow) => placeKey(r.normalizedUrl!, r.row!.audience?.name ?? null);

/**
 * Finds what each row changes, or that it adds; a second row for the same mapping, or adding at the same URL for
 * the same audience (or none), is refused.
 */
async function findTargets(db: Db, user: User, rows: ParsedRow[]) {
  const withIds = rows.filter((r) => r.row?.id !== undefined);
  const byId = await mappingsWithIds(
    db,
    user.id,
    withIds.map((r) => r.row!.id!),
  );
  const byPlace = await newestMappingsAt(db, user.id, [
    ...new Set(rows.filter((r) => r.row && r.row.id === undefined).map((r) => r.normalizedUrl!)),
  ]);
  const firstRowFor = new Map<string, number>();
  return rows.map((r) => {
    if (!r.row) return { report: r.report };
    const target = r.row.id !== undefined ? byId.get(r.row.id) : byPlace.get(placeOf(r));
    if (r.row.id !== undefined && !target) {
      refuse(r.report, `No mapping with id ${r.row.id}`);
      return { report: r.report };
    }
    const key = target ? `id:${target.id}` : `url:${placeOf(r)}`;
    const first = firstRowFor.get(key);
    if (first !== undefined) {
      refuse(r.report, `Row ${first} already ${target ? "changes this mapping" : "adds a mapping at this URL"}`);
      return { report: r.report };
    }
    firstRowFor.set(key, r.report.row);
    return { report: r.report, row: r.row, normalizedUrl: r.normalizedUrl!, target };
  });
}

/** The row's mapping as it will be stored, or the problem with its publication. */
function toMapping(row: MappingImportRow, normalizedUrl: string, target: ImportTarget | undefined, now: Date) {
  const { url, htmlContent, placement, seo, audience, priority, status, publishAt, unpublishAt } = row;
  const publication = resolvePublication({ status, publishAt, unpublishAt }, target ?? publishedNow(now), now);
  if (typeof publication === "string") return publication;
  const extras = storedExtras({ placement, seo, audience, priority });
  // A new mapping without extras stores the defaults; an update keeps what it has.
  return { url, normalizedUrl, htmlContent, ...(target ? {} : { placement: null, seo: null }), ...extras, publication };
}

/**
 * Holds a row to its URL's bounds on audience mappings (docs/audiences.md), counting the rows before it: `live`
 * holds each URL's published or scheduled audience mappings and their bytes. Null when the row fits (it is then
 * counted), else the refusal.
 */
function takeAudienceRoom(live: Map<string, Map<string, number>>, r: CheckedRow, bytes: number): string | null {
  const m = r.mapping!;
  const key = r.target ? `id:${r.target.id}` : `row:${r.report.row}`;
  if (r.target) live.get(r.target.normalizedUrl)?.delete(key);
  const hasAudience = m.audience === undefined ? r.target?.audienceName != null : m.audience !== null;
  if (!hasAudience || (m.publication.publishedAt === null && m.publication.publishAt === null)) return null;
  const here = live.get(m.normalizedUrl) ?? new Map<string, number>();
  if (here.size >= AUDIENCE_MAPPINGS_PER_URL_MAX) return AUDIENCE_MAPPINGS_FULL;
  const stored = [...here.values()].reduce((sum, b) => sum + b, 0);
  if (stored + bytes > AUDIENCE_MAPPINGS_MAX_BYTES) return AUDIENCE_MAPPINGS_TOO_LARGE;
  live.set(m.normalizedUrl, here.set(key, bytes));
  return null;
}

/**
 * Holds the rows to the plan's limits, in file order: mappings added this period (events), websites not yet the
 * customer's, the bytes their mappings store (the content budget), and each URL's bounds on audience mappings. A
 * row past a limit is refused, with the limit's message.
 */
async function holdToPlan(db: Db, user: User, rows: CheckedRow[]) {
  const room = await roomForMappings(db, user);
  const budget = await contentBudgetOf(db, user.id);
  const urls = rows.flatMap((r) => (r.mapping ? [r.mapping.normalizedUrl, r.target?.normalizedUrl ?? []].flat() : []));
  const live = await liveAudienceMappingsAt(db, user.id, [...new Set(urls)]);
  const changesSite = (r: CheckedRow) => r.mapping && (!r.target || r.target.normalizedUrl !== r.mapping.normalizedUrl);
  const hosts = [...new Set(rows.filter(changesSite).map((r) => hostOf(r.mapping!.normalizedUrl)))];
  const known = room.websitesLimit === null ? new Set<string>() : await hostsWithMappings(db, user.id, hosts);
  let eventsLeft = room.eventsLeft;
  let websites = room.activeWebsites;
  for (const r of rows) {
    if (!r.mapping) continue;
    if (!r.target && eventsLeft !== null) {
      if (eventsLeft === 0) {
        refuse(r.report, eventsLimitReached(room.eventsLimit!));
        continue;
      }
      eventsLeft--;
    }
    const host = hostOf(r.mapping.normalizedUrl);
    if (room.websitesLimit !== null && changesSite(r) && !known.has(host)) {
      if (websites >= room.websitesLimit) {
        refuse(r.report, websitesLimitReached(room.websitesLimit, host));
        continue;
      }
      websites++;
      known.add(host);
    }
    const { url, htmlContent, placement, seo, audience } = r.mapping;
    const growth = contentGrowth(r.target?.content ?? null, { url, htmlContent, placement, seo, audience });
    const refusal =
      contentRefusal(budget, growth) ?? takeAudienceRoom(live, r, (r.target ? rowBytes(r.target.content) : 0) + growth);
    if (refusal) {
      refuse(r.report, refusal);
      continue;
    }
    budget.used += growth;
  }
}

function summary(rows: CheckedRow[], dryRun: boolean, applied: boolean): ImportReport {
  const count = (action: ImportRowReport["action"]) => rows.filter((r) => r.report.action === action).length;
  const [added, updated, refused] = [count("add"), count("update"), count("refuse")];
  const n = (k: number, what: string) => `${formatNumber(k)} ${what}`;
  const message =
    refused > 0
      ? `${n(refused, refused === 1 ? "row is" : "rows are")} refused: nothing was imported`
      : `${n(added, "added")}, ${n(updated, "updated")}${applied ? "" : dryRun ? ": checked, nothing changed yet" : ""}`;
  return { dryRun, applied, total: rows.length, added, updated, refused, message, rows: rows.map((r) => r.report) };
}

export interface ImportOutcome {
  report: ImportReport;
  /** The normalised URLs whose delivery entries the import changed (before and after), for the delivery store. */
  changedUrls: string[];
}

export async function importMappings(
  db: Db,
  user: User,
  records: ImportRecord[],
  { dryRun, now = new Date() }: { dryRun: boolean; now?: Date },
): Promise<ImportOutcome> {
  const rows: CheckedRow[] = (await findTargets(db, user, parseRows(records, user))).map((r) => {
    if (!r.row) return { report: r.report };
    const mapping = toMapping(r.row, r.normalizedUrl, r.target, now);
    if (typeof mapping === "string") {
      refuse(r.report, mapping);
      return { report: r.report };
    }
    if (r.target) Object.assign(r.report, { action: "update", id: r.target.id });
    return { report: r.report, mapping, target: r.target };
  });
  await holdToPlan(db, user, rows);
  if (dryRun || rows.some((r) => r.report.action === "refuse")) {
    return { report: summary(rows, dryRun, false), changedUrls: [] };
  }
  const adds = rows.filter((r) => !r.target);
  const updates = rows.filter((r) => r.target);
  const addedIds = await applyImport(
    db,
    user.id,
    adds.map((r) => r.mapping!),
    updates.map((r) => ({ id: r.target!.id, mapping: r.mapping! })),
    now,
  );
  for (const r of adds)
    r.report.id = addedIds.get(placeKey(r.mapping!.normalizedUrl, r.mapping!.audience?.name ?? null));
  const changedUrls = new Set(rows.flatMap((r) => [r.mapping!.normalizedUrl, r.target?.normalizedUrl ?? []].flat()));
  return { report: summary(rows, false, true), changedUrls: [...changedUrls] };
}
