/**
 * @module Just enough of SQLite's tokenizer to see what D1's limits apply to: the parameters each statement of
 * a text uses (`?` and `?NNN`; D1 supports no other kind) and which of them are LIKE or GLOB patterns.
 * Literals, quoted names and comments are skipped, so a `?` or `;` inside them counts for nothing.
 */

export interface ScannedStatement {
  /** The highest parameter number, which is how many parameters SQLite allocates for the statement. */
  parameters: number;
  /** 1-based numbers of the parameters that are the right-hand side of LIKE or GLOB. */
  patternParameters: number[];
}

const PATTERN_OPERATOR = /\b(?:like|glob)\s*$/i;

export function scanSql(sql: string): ScannedStatement[] {
  const statements: ScannedStatement[] = [];
  let start = 0;
  let current: ScannedStatement = { parameters: 0, patternParameters: [] };
  const close = (end: number) => {
    if (sql.slice(start, end).trim()) statements.push(current);
    current = { parameters: 0, patternParameters: [] };
    start = end + 1;
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === "`") {
      i = skipQuoted(sql, i, c);
    } else if (c === "[") {
      i = endOf(sql, "]", i + 1);
    } else if (c === "-" && sql[i + 1] === "-") {
      i = endOf(sql, "\n", i + 2);
    } else if (c === "/" && sql[i + 1] === "*") {
      i = endOf(sql, "*/", i + 2);
    } else if (c === "?") {
      let j = i + 1;
      while (j < sql.length && sql[j]! >= "0" && sql[j]! <= "9") j++;
      const number = j > i + 1 ? Number(sql.slice(i + 1, j)) : current.parameters + 1;
      current.parameters = Math.max(current.parameters, number);
      if (PATTERN_OPERATOR.test(sql.slice(Math.max(start, i - 12), i))) current.patternParameters.push(number);
      i = j;
    } else if (c === ";") {
      close(i);
      i++;
    } else {
      i++;
    }
  }
  close(sql.length);
  return statements;
}

/** The index after the closing quote; a doubled quote is an escaped one. */
function skipQuoted(sql: string, open: number, quote: string): number {
  let i = open + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i += 2;
    } else {
      i++;
    }
  }
  return i;
}

function endOf(sql: string, terminator: string, from: number): number {
  const at = sql.indexOf(terminator, from);
  return at < 0 ? sql.length : at + terminator.length;
}
