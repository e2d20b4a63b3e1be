/**
 * @module Bulk import and export of a customer's mappings (docs/bulk.md): the file formats, their caps, and the
 * per-row report an import answers.
 */

/** Rows one import may hold. */
export const IMPORT_MAX_ROWS = 10_000;

/** An import's body: 10,000 mappings of about 1 KB of HTML each fit; larger HTML goes in several files. */
export const IMPORT_BODY_MAX_BYTES = 16 * 1024 * 1024;

export const IMPORT_FORMATS = ["csv", "json"] as const;
export type BulkFormat = (typeof IMPORT_FORMATS)[number];

/**
 * The CSV columns, in the order the export writes them. The import needs `url` and `htmlContent`; an empty cell is
 * no value (an update keeps what the mapping has). Placement and SEO are spread over columns of their own; `audience`
 * is the audience's JSON (`null` makes the mapping its URL's fallback again), `priority` a whole number.
 */
export const CSV_COLUMNS = [
  "id",
  "url",
  "htmlContent",
  "match",
  "status",
  "publishAt",
  "unpublishAt",
  "position",
  "selector",
  "seoTitle",
  "seoDescription",
  "seoCanonical",
  "seoRobots",
  "seoJsonLd",
  "audience",
  "priority",
] as const;

/** Columns the export adds for reading only: the import accepts and ignores them. */
export const CSV_READ_ONLY_COLUMNS = ["createdAt", "publishedAt", "totalRequests", "contentDeliveryCount"] as const;

export const CSV_REQUIRED_COLUMNS = ["url", "htmlContent"] as const;

/** What an import does with one row. */
export type ImportAction = "add" | "update" | "refuse";

export interface ImportRowReport {
  /** 1 is the first row after the CSV's header, or the first element of the JSON array. */
  row: number;
  action: ImportAction;
  /** The row's URL as given, if it has one. */
  url: string | null;
  /** The mapping the row adds (once applied) or updates. */
  id?: number;
  /** Why the row is refused. */
  errors?: string[];
}

export interface ImportReport {
  /** Only checked (`?dryRun=1`): nothing was changed. */
  dryRun: boolean;
  /** Every row was applied, in one transaction; false: nothing was. */
  applied: boolean;
  total: number;
  added: number;
  updated: number;
  refused: number;
  message: string;
  rows: ImportRowReport[];
}

/**
 * CSV cells a spreadsheet would run as a formula: starting with `=`, `+`, `-`, `@`, a tab or a line break, over
 * any lines (HTML spans many), or with `'` marks before one. The export starts them with one more `'`; the import
 * takes exactly that one off (`FORMULA_MARK`), so that every cell comes back as it was.
 */
export const FORMULA_CELL = /^'*[=+\-@\t\r\n]/;
export const FORMULA_MARK = /^'(?='*[=+\-@\t\r\n])/;
