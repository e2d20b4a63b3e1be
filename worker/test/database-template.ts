/**
 * @module The test database, made two ways that end in the same database: by replaying every migration (once per
 * test file) and from a template, the statements that make a database as it is: its schema, its rows, its FTS5
 * indexes and its AUTOINCREMENT counters. The template the replay leaves makes each test's database: about 140
 * statements instead of about 290 with their table rebuilds, measured here 20-40 ms a test instead of 100-500 ms.
 * The authorization matrix copies its fixture the same way (route-matrix.ts).
 */
import { env } from "cloudflare:workers";

/**
 * Every migration's statements, run as one batch: what `applyD1Migrations` of cloudflare:test does in a round trip
 * per migration, with the same `d1_migrations` records.
 */
export async function replayMigrations() {
  const statements = [
    `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE,
      applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
    ...env.TEST_MIGRATIONS.flatMap((m) => m.queries),
  ].map((sql) => env.DB.prepare(sql));
  const names = JSON.stringify(env.TEST_MIGRATIONS.map((m) => m.name));
  await env.DB.batch([
    ...statements,
    env.DB.prepare("INSERT INTO d1_migrations (name) SELECT value FROM json_each(?1)").bind(names),
  ]);
}

interface MasterRow {
  type: string;
  name: string;
  sql: string;
}

/** Objects SQLite and D1 make themselves: sqlite_sequence, autoindexes (no SQL), D1's own `_cf_` tables. */
const SCHEMA = `SELECT type, name, sql FROM sqlite_master
  WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY rowid`;

/** The schema in creation order; `objects` without the shadow tables (`<name>_data`, …) FTS5 makes itself. */
async function readSchema() {
  const { results: master } = await env.DB.prepare(SCHEMA).all<MasterRow>();
  const searches = master.filter((o) => o.sql.startsWith("CREATE VIRTUAL TABLE")).map((o) => o.name);
  const isShadow = (o: MasterRow) => o.type === "table" && searches.some((search) => o.name.startsWith(`${search}_`));
  return { master, searches, objects: master.filter((o) => !isShadow(o)) };
}

/** An INSERT of each row into `table`'s insertable columns (not generated ones, hidden 2 and 3, nor an FTS5 table's own hidden ones). */
async function insertsOf(table: string, rows: Record<string, unknown>[], withRowid = false) {
  if (rows.length === 0) return [];
  const { results } = await env.DB.prepare(`SELECT name FROM pragma_table_xinfo('${table}') WHERE hidden = 0`).all<{
    name: string;
  }>();
  const names = [...(withRowid ? ["rowid"] : []), ...results.map((c) => c.name)];
  const sql = `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map((_, n) => `?${n + 1}`).join(", ")})`;
  // D1 answers a BLOB as an array of bytes and binds one as bytes.
  const value = (v: unknown) => (Array.isArray(v) ? new Uint8Array(v) : (v ?? null));
  return rows.map((row) => env.DB.prepare(sql).bind(...names.map((n) => value(row[n]))));
}

/**
 * The statements that make the database as it is now: its tables, their rows, each FTS5 index filled, then the
 * indexes and triggers (after the rows, so that the copy of a row does not fire what its writing already did), and
 * the AUTOINCREMENT counters as they are (a rebuilt table's may be 0), not as the copied rows would set them.
 */
export async function readTemplate(): Promise<D1PreparedStatement[]> {
  const { searches, objects } = await readSchema();
  const tableObjects = objects.filter((o) => o.type === "table");
  const tables = tableObjects.filter((o) => !searches.includes(o.name)).map((o) => o.name);
  const contents = await env.DB.batch(tables.map((t) => env.DB.prepare(`SELECT * FROM "${t}"`)));
  const rows = (
    await Promise.all(tables.map((t, i) => insertsOf(t, (contents[i]!.results ?? []) as Record<string, unknown>[])))
  ).flat();
  // An FTS5 index over another table's content is rebuilt from it; one holding its own content gets its rows.
  const fills: D1PreparedStatement[] = [];
  for (const search of tableObjects.filter((o) => searches.includes(o.name))) {
    if (/content\s*=\s*'[^']+'/.test(search.sql)) {
      fills.push(env.DB.prepare(`INSERT INTO "${search.name}" ("${search.name}") VALUES ('rebuild')`));
    } else {
      const { results } = await env.DB.prepare(`SELECT rowid, * FROM "${search.name}"`).all<Record<string, unknown>>();
      fills.push(...(await insertsOf(search.name, results, true)));
    }
  }
  const { results: counters } = await env.DB.prepare("SELECT name, seq FROM sqlite_sequence").all<{
    name: string;
    seq: number;
  }>();
  return [
    // Rows are copied table by table: their references are checked when the batch commits.
    env.DB.prepare("PRAGMA defer_foreign_keys = ON"),
    ...tableObjects.map((o) => env.DB.prepare(o.sql)),
    ...rows,
    ...fills,
    ...objects.filter((o) => o.type !== "table").map((o) => env.DB.prepare(o.sql)),
    env.DB.prepare("DELETE FROM sqlite_sequence"),
    ...counters.map((c) =>
      env.DB.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?1, ?2)").bind(c.name, c.seq),
    ),
  ];
}

/**
 * What a database holds, to compare two: its schema (by name: the order objects were made in means nothing to
 * SQLite), every table's rows (an FTS5 table's as it answers
 * them, not its shadow tables' blocks, which differ between an index rebuilt empty and one made empty), and the
 * AUTOINCREMENT counters.
 */
export async function describeDatabase() {
  const { master, objects } = await readSchema();
  master.sort((a, b) => `${a.type} ${a.name}`.localeCompare(`${b.type} ${b.name}`));
  const tables = objects.filter((o) => o.type === "table");
  const contents = await env.DB.batch([
    ...tables.map((t) => env.DB.prepare(`SELECT * FROM "${t.name}" ORDER BY 1`)),
    env.DB.prepare("SELECT name, seq FROM sqlite_sequence ORDER BY name"),
  ]);
  return { master, rows: contents.map((c) => c.results) };
}
