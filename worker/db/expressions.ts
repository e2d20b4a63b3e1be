/**
 * @module SQL expressions whose cost in bound parameters does not grow with their input. Production D1 binds
 * at most 100 parameters per statement and takes LIKE patterns of at most 50 bytes (docs/scaling.md), while
 * local SQLite allows far more, so lists and searches go through these instead of `inArray` or `like`.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** `expression IN (values)` with one bound parameter, the list as a JSON array, whatever its length. */
export function inList(expression: SQLWrapper, values: readonly (string | number)[]): SQL {
  return sql`${expression} in (select value from json_each(${JSON.stringify(values)}))`;
}

/** Case-insensitive "contains": `%` and `_` in the term are plain characters, and the term has no length cap. */
export function containsText(expression: SQLWrapper, term: string): SQL {
  return sql`instr(lower(${expression}), lower(${term})) > 0`;
}

/**
 * Rows whose `column` is among those the trigram FTS5 table `index` finds for `term` (matched as one phrase;
 * `indexColumn` is the index's copy of `column`, its rowid for an external-content index). An index probe that
 * finds a superset of `containsText`'s rows, so callers add `containsText` for its exact meaning. Terms under
 * three characters have no trigram to probe: `undefined`, and the caller scans.
 */
export function trigramCandidates(column: SQLWrapper, index: string, term: string, indexColumn = "rowid") {
  if ([...term].length < 3) return undefined;
  const phrase = `"${term.replaceAll('"', '""')}"`;
  const table = sql.identifier(index);
  return sql`${column} in (select ${sql.identifier(indexColumn)} from ${table} where ${table} match ${phrase})`;
}

/** Most bytes of JSON one list parameter carries: D1 refuses a value over 2 MB. */
const JSON_CHUNK_BYTES = 1024 * 1024;

/**
 * Splits `items` into runs whose JSON stays within `maxBytes`, one statement's list parameter each (an item larger
 * than that is a run of its own).
 */
export function chunksByJsonSize<T>(items: readonly T[], maxBytes = JSON_CHUNK_BYTES): T[][] {
  const encoder = new TextEncoder();
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 2;
  for (const item of items) {
    const itemSize = encoder.encode(JSON.stringify(item)).byteLength + 1;
    if (current.length > 0 && size + itemSize > maxBytes) {
      chunks.push(current);
      current = [];
      size = 2;
    }
    current.push(item);
    size += itemSize;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
