/**
 * @module Reads an import's body (CSV or JSON, docs/bulk.md) into one record per row, as a mapping body would be
 * sent, for the row checks; a file that cannot be read as a whole is a 400 (or 415 for another type) that names
 * the problem.
 */
import Papa from "papaparse";
import {
  CSV_COLUMNS,
  CSV_READ_ONLY_COLUMNS,
  CSV_REQUIRED_COLUMNS,
  FORMULA_MARK,
  IMPORT_MAX_ROWS,
  type BulkFormat,
} from "#contract/bulk";
import { formatNumber } from "#contract/input-caps";
import { ApiError } from "../http/errors";
import { bodyTooDeep } from "../http/json-depth";

/** A row as read: the record to check, or why it cannot be. */
export type ImportRecord = { record: unknown } | { errors: string[] };

export const UNSUPPORTED_IMPORT_TYPE = "Send the import as text/csv or application/json";

/** The format a Content-Type names, or a 415. */
export function importFormat(contentType: string | undefined): BulkFormat {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === "text/csv") return "csv";
  if (type === "application/json") return "json";
  throw new ApiError(415, UNSUPPORTED_IMPORT_TYPE);
}

const tooManyRows = (n: number) =>
  new ApiError(400, `An import holds at most ${formatNumber(IMPORT_MAX_ROWS)} rows; this one has ${formatNumber(n)}`);

export function readImport(format: BulkFormat, body: string): ImportRecord[] {
  const records = format === "csv" ? readCsv(body) : readJson(body);
  if (records.length === 0) throw new ApiError(400, "The import has no rows");
  if (records.length > IMPORT_MAX_ROWS) throw tooManyRows(records.length);
  return records;
}

/** A JSON array of mapping bodies, or `{"mappings": [...]}` (what the JSON export writes). */
function readJson(body: string): ImportRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ApiError(400, "The import is not valid JSON");
  }
  const rows = Array.isArray(parsed) ? parsed : (parsed as { mappings?: unknown } | null)?.mappings;
  if (!Array.isArray(rows)) throw new ApiError(400, 'A JSON import is an array of mappings, or {"mappings": [...]}');
  rows.forEach((record: unknown, i) => {
    const tooDeep = bodyTooDeep(record, `Row ${formatNumber(i + 1)}`);
    if (tooDeep) throw new ApiError(400, tooDeep);
  });
  return rows.map((record: unknown) => ({ record }));
}

const KNOWN_COLUMNS = new Set<string>([...CSV_COLUMNS, ...CSV_READ_ONLY_COLUMNS]);

type CsvRow = Partial<Record<(typeof CSV_COLUMNS)[number], string>>;

function readCsv(body: string): ImportRecord[] {
  const parsed = Papa.parse<CsvRow>(body.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (header) => header.trim(),
  });
  const columns = parsed.meta.fields ?? [];
  const unknown = columns.filter((c) => !KNOWN_COLUMNS.has(c));
  if (unknown.length > 0) {
    throw new ApiError(400, `Unknown CSV column ${unknown.join(", ")}: the columns are ${CSV_COLUMNS.join(", ")}`);
  }
  const missing = CSV_REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new ApiError(400, `The CSV needs the column ${missing.join(" and ")} in its header`);
  if (parsed.data.length > IMPORT_MAX_ROWS) throw tooManyRows(parsed.data.length);

  const rowErrors = new Map<number, string[]>();
  for (const error of parsed.errors) {
    if (error.row === undefined) throw new ApiError(400, `The CSV cannot be read: ${error.message}`);
    rowErrors.set(error.row, [...(rowErrors.get(error.row) ?? []), error.message]);
  }
  return parsed.data.map((row, i) => {
    const errors = rowErrors.get(i);
    return errors ? { errors } : fromCsvRow(row);
  });
}

export const AUDIENCE_CELL_NOT_JSON =
  'audience: the cell must hold the audience as JSON, e.g. {"name":"Germany","country":["DE"]}, or null';

/** A JSON cell's value; `undefined` when the cell is empty, a problem when it is not JSON. */
function jsonCell(text: string | undefined): { value: unknown } | { problem: true } {
  if (text === undefined) return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { problem: true };
  }
}

/** A whole number as a number; anything else as it is, for the row's checks to name. */
const numberCell = (text: string | undefined) =>
  text !== undefined && /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;

/** A CSV row as a mapping body: empty cells are no value, placement and SEO are put together from their columns. */
function fromCsvRow(row: CsvRow): ImportRecord {
  const cell = (column: (typeof CSV_COLUMNS)[number]) => {
    // The export's mark before a formula-like cell (contract/bulk.ts), and only that, comes off.
    const value = row[column]?.replace(FORMULA_MARK, "");
    return value === undefined || value.trim() === "" ? undefined : value;
  };
  const position = cell("position");
  const seo = {
    title: cell("seoTitle"),
    description: cell("seoDescription"),
    canonical: cell("seoCanonical"),
    robots: cell("seoRobots"),
    jsonLd: cell("seoJsonLd"),
  };
  const audience = jsonCell(cell("audience"));
  if ("problem" in audience) return { errors: [AUDIENCE_CELL_NOT_JSON] };
  const record = {
    id: cell("id"),
    url: cell("url")?.trim(),
    htmlContent: cell("htmlContent"),
    match: cell("match")?.trim(),
    status: cell("status")?.trim(),
    publishAt: cell("publishAt")?.trim(),
    unpublishAt: cell("unpublishAt")?.trim(),
    placement: position ? { position: position.trim(), selector: cell("selector") } : undefined,
    seo: Object.values(seo).some((v) => v !== undefined) ? seo : undefined,
    audience: audience.value,
    priority: numberCell(cell("priority")),
  };
  return { record };
}
