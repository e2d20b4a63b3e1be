/**
 * @module The export of everything a customer's mappings hold (docs/bulk.md), as CSV or JSON in the import's own
 * format, so that an export imported again changes nothing. It streams: a page of mappings at a time is read
 * and written, so memory stays flat whatever the number of mappings.
 */
import Papa from "papaparse";
import { CSV_COLUMNS, CSV_READ_ONLY_COLUMNS, FORMULA_CELL, type BulkFormat } from "#contract/bulk";
import type { Mapping } from "#contract/responses";
import type { Db } from "../db/client";
import { mappingsAfter } from "../models/mappings";
import type { Held } from "../models/held-counts";

/** Mappings read per query: 100,000 mappings take 400 queries, within the 1,000 of one invocation. */
const PAGE_SIZE = 250;

/** A mapping in the import's JSON format, with what the import ignores (dates and counts) after it. */
export function exportedMapping(m: Mapping) {
  return {
    id: m.id,
    url: m.url,
    htmlContent: m.htmlContent,
    match: m.match,
    status: m.publishedAt ? "published" : "draft",
    publishAt: m.publishAt,
    unpublishAt: m.unpublishAt,
    placement: m.placement,
    seo: m.seo,
    // Only a mapping for an audience has them (docs/audiences.md): others export as before.
    ...(m.audience ? { audience: m.audience, priority: m.priority } : {}),
    createdAt: m.createdAt,
    publishedAt: m.publishedAt,
    totalRequests: m.totalRequests,
    contentDeliveryCount: m.contentDeliveryCount,
  };
}

function csvRow(m: Mapping): Record<string, string | number> {
  const e = exportedMapping(m);
  return {
    id: e.id,
    url: e.url,
    htmlContent: e.htmlContent,
    match: e.match,
    status: e.status,
    publishAt: e.publishAt ?? "",
    unpublishAt: e.unpublishAt ?? "",
    position: e.placement.position,
    selector: "selector" in e.placement ? e.placement.selector : "",
    seoTitle: e.seo.title ?? "",
    seoDescription: e.seo.description ?? "",
    seoCanonical: e.seo.canonical ?? "",
    seoRobots: e.seo.robots ?? "",
    seoJsonLd: e.seo.jsonLd === undefined ? "" : JSON.stringify(e.seo.jsonLd),
    audience: e.audience ? JSON.stringify(e.audience) : "",
    priority: e.priority ?? "",
    createdAt: e.createdAt,
    publishedAt: e.publishedAt ?? "",
    totalRequests: e.totalRequests,
    contentDeliveryCount: e.contentDeliveryCount,
  };
}

const CSV_HEADER = [...CSV_COLUMNS, ...CSV_READ_ONLY_COLUMNS];

/** Cells that a spreadsheet would run as formulas start with `'` (contract/bulk.ts; the import takes it off). */
const csvLines = (mappings: Mapping[]) =>
  Papa.unparse(mappings.map(csvRow), {
    columns: CSV_HEADER,
    header: false,
    escapeFormulae: FORMULA_CELL,
    newline: "\r\n",
  }) + "\r\n";

/** The customer's mappings, oldest first, as a stream of CSV or JSON text; counts with what `held` adds. */
export function exportStream(
  db: Db,
  userId: string,
  format: BulkFormat,
  held: Held | null,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = { createdAt: -1, id: 0 };
  let first = true;
  let done = false;
  return new ReadableStream({
    async pull(controller) {
      if (done) return;
      const page = await mappingsAfter(db, userId, after, PAGE_SIZE, held);
      let text = "";
      if (format === "csv") {
        if (first) text += `${Papa.unparse([CSV_HEADER])}\r\n`;
        if (page.length > 0) text += csvLines(page);
      } else {
        text += page.map((m, i) => `${first && i === 0 ? "[\n" : ",\n"}${JSON.stringify(exportedMapping(m))}`).join("");
        if (page.length < PAGE_SIZE) text += first && page.length === 0 ? "[]\n" : "\n]\n";
      }
      first = false;
      const last = page.at(-1);
      if (last) after = { createdAt: Date.parse(last.createdAt), id: last.id };
      if (page.length < PAGE_SIZE) done = true;
      if (text) controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
  });
}
