/**
 * @module A D1 binding that refuses what production D1 refuses (see limits.ts), checked when a statement runs,
 * as production does: on `first`, `all`, `run` and `raw` of a prepared statement, on every statement of a
 * `batch()` before any of them runs, on each query of an `exec()`, and in sessions. Rows read back are
 * checked too: a row over the limit could only have been stored because local SQLite allowed it.
 */
import { D1_LIMITS, LIMITED, checkedCalls, formatBytes, refuse, valueBytes } from "./limits";
import { utf8Length } from "#contract/input-caps";
import { scanSql, type ScannedStatement } from "./sql-scan";

const preview = (sql: string) => (sql.length > 160 ? `${sql.slice(0, 160)}…` : sql);

class LimitedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly sql: string,
    readonly scanned: ScannedStatement[],
    readonly values: unknown[] = [],
  ) {}

  bind(...values: unknown[]) {
    return new LimitedStatement(this.inner.bind(...values), this.sql, this.scanned, values);
  }

  async first(column?: string) {
    checkStatement(this);
    if (column !== undefined) return this.inner.first(column);
    const row = await this.inner.first();
    if (row) checkRows([row], this.sql);
    return row;
  }

  async all() {
    checkStatement(this);
    const result = await this.inner.all();
    checkRows(result.results, this.sql);
    return result;
  }

  async run() {
    checkStatement(this);
    const result = await this.inner.run();
    checkRows(result.results ?? [], this.sql);
    return result;
  }

  async raw(options?: { columnNames?: boolean }) {
    checkStatement(this);
    const rows: unknown[] = options?.columnNames ? await this.inner.raw({ columnNames: true }) : await this.inner.raw();
    checkRows(options?.columnNames ? rows.slice(1) : rows, this.sql);
    return rows;
  }
}

function checkStatement({ sql, scanned, values }: LimitedStatement) {
  checkedCalls.d1++;
  const sqlBytes = utf8Length(sql);
  if (sqlBytes > D1_LIMITS.statementBytes) {
    refuse(
      `D1: an SQL statement of ${formatBytes(sqlBytes)}; the limit is ${formatBytes(D1_LIMITS.statementBytes)}: ${preview(sql)}`,
    );
  }
  const parameters = Math.max(values.length, ...scanned.map((s) => s.parameters));
  if (parameters > D1_LIMITS.boundParameters) {
    refuse(
      `D1: ${parameters} bound parameters in one statement; the limit is ${D1_LIMITS.boundParameters}: ${preview(sql)}`,
    );
  }
  let total = 0;
  values.forEach((value, i) => {
    const bytes = valueBytes(value);
    if (bytes > D1_LIMITS.valueBytes) {
      refuse(
        `D1: bound value ${i + 1} has ${formatBytes(bytes)}; a string or BLOB may have at most ${formatBytes(D1_LIMITS.valueBytes)}: ${preview(sql)}`,
      );
    }
    total += bytes;
  });
  if (total > D1_LIMITS.rowBytes) {
    refuse(
      `D1: one statement binds ${formatBytes(total)}, more than a row may hold (${formatBytes(D1_LIMITS.rowBytes)}): ${preview(sql)}`,
    );
  }
  for (const n of scanned.flatMap((s) => s.patternParameters)) {
    const bytes = valueBytes(values[n - 1]);
    if (bytes > D1_LIMITS.likePatternBytes) {
      refuse(
        `D1: a LIKE/GLOB pattern of ${formatBytes(bytes)} (parameter ${n}); the limit is ${formatBytes(D1_LIMITS.likePatternBytes)}: ${preview(sql)}`,
      );
    }
  }
}

function checkRows(rows: readonly unknown[], sql: string) {
  for (const row of rows) {
    const cells = Array.isArray(row) ? row : Object.values(row as Record<string, unknown>);
    const bytes = cells.reduce<number>((sum, cell) => sum + valueBytes(cell), 0);
    if (bytes > D1_LIMITS.rowBytes) {
      refuse(
        `D1: a row of ${formatBytes(bytes)} was read back; production cannot store a row over ${formatBytes(D1_LIMITS.rowBytes)}: ${preview(sql)}`,
      );
    }
  }
}

function prepare(inner: D1Database | D1DatabaseSession, sql: string) {
  return new LimitedStatement(inner.prepare(sql), sql, scanSql(sql));
}

async function batch(inner: D1Database | D1DatabaseSession, statements: D1PreparedStatement[]) {
  const limited = statements.map((s) => {
    if (!(s instanceof LimitedStatement)) throw new TypeError("batch(): a statement not prepared on the limited D1");
    return s;
  });
  limited.forEach(checkStatement);
  const results = await inner.batch(limited.map((s) => s.inner));
  results.forEach((r, i) => checkRows(r.results ?? [], limited[i]!.sql));
  return results;
}

function limitSession(inner: D1DatabaseSession): D1DatabaseSession {
  return {
    prepare: (sql: string) => prepare(inner, sql),
    batch: (statements: D1PreparedStatement[]) => batch(inner, statements),
    getBookmark: () => inner.getBookmark(),
  } as unknown as D1DatabaseSession;
}

class LimitedD1 {
  readonly [LIMITED] = true;
  constructor(private readonly inner: D1Database) {}

  prepare(sql: string) {
    return prepare(this.inner, sql);
  }

  batch(statements: D1PreparedStatement[]) {
    return batch(this.inner, statements);
  }

  /** The binding sends each line of the text as one query, so the statement limit applies per line. */
  async exec(sql: string) {
    for (const line of sql.trim().split("\n")) {
      const bytes = utf8Length(line);
      if (bytes > D1_LIMITS.statementBytes) {
        refuse(
          `D1: exec() with a line of ${formatBytes(bytes)}; the limit is ${formatBytes(D1_LIMITS.statementBytes)}: ${preview(line)}`,
        );
      }
    }
    return this.inner.exec(sql);
  }

  withSession(constraintOrBookmark?: string) {
    return limitSession(this.inner.withSession(constraintOrBookmark));
  }

  dump() {
    return this.inner.dump();
  }
}
// `applyD1Migrations` of cloudflare:test accepts only an object whose constructor is named D1Database.
Object.defineProperty(LimitedD1, "name", { value: "D1Database" });

/** Wraps a D1 binding; wrapping an already limited one returns it unchanged. */
export function limitD1(inner: D1Database): D1Database {
  if (LIMITED in inner) return inner;
  return new LimitedD1(inner) as unknown as D1Database;
}
