/**
 * The migrated database is what worker/db declares, and nothing else: every table, column and index of schema/;
 * every trigger and FTS5 table of raw.ts, as raw.ts writes it; WITHOUT ROWID exactly where raw.ts says. A migration
 * that drops a trigger, a generated rebuild that loses WITHOUT ROWID, or a table made by hand fails here.
 * (scripts/dev/check-migrations.mjs checks the other direction: that schema/ has no change the migrations lack.)
 */
import { env } from "cloudflare:workers";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { SEARCH_TABLES, TRIGGERS, WITHOUT_ROWID_TABLES } from "./raw";
import * as schema from "./schema";

interface MasterRow {
  type: string;
  name: string;
  tableName: string;
  sql: string | null;
}

const declaredTables = (Object.values(schema) as unknown[])
  .filter((value): value is SQLiteTable => is(value, SQLiteTable))
  .map((table) => getTableConfig(table));

/** Quoting and layout do not change what SQL means: compared without them. */
const normalized = (sql: string) => sql.replaceAll("`", '"').replace(/\s+/g, " ").replace(/\( /g, "(").trim();

async function sqliteMaster(): Promise<MasterRow[]> {
  const { results } = await env.DB.prepare(
    "SELECT type, name, tbl_name AS tableName, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
  ).all<MasterRow>();
  return results;
}

/** FTS5 keeps each index in shadow tables named after it: part of the virtual table, not tables of ours. */
const isShadowOfSearch = (name: string) => SEARCH_TABLES.some((search) => name.startsWith(`${search.name}_`));

describe("the migrated database", () => {
  it("has the tables schema/ declares, with their columns and indexes, and no table it does not declare", async () => {
    const master = await sqliteMaster();
    const tables = master
      .filter((row) => row.type === "table" && !row.sql?.startsWith("CREATE VIRTUAL TABLE"))
      .map((row) => row.name)
      .filter((name) => !isShadowOfSearch(name));
    expect(tables.sort()).toEqual(declaredTables.map((t) => t.name).sort());

    for (const table of declaredTables) {
      const { results: columns } = await env.DB.prepare(
        `SELECT name, "notnull" AS required FROM pragma_table_xinfo('${table.name}')`,
      ).all<{ name: string; required: number }>();
      expect(columns.map((c) => c.name).sort(), table.name).toEqual(table.columns.map((c) => c.name).sort());
      for (const column of table.columns) {
        const stored = columns.find((c) => c.name === column.name);
        expect(Boolean(stored?.required), `${table.name}.${column.name} NOT NULL`).toBe(column.notNull);
      }
      const indexes = master.filter((row) => row.type === "index" && row.tableName === table.name && row.sql !== null);
      expect(indexes.map((row) => row.name).sort(), table.name).toEqual(
        [
          ...table.indexes.map((index) => index.config.name),
          ...table.uniqueConstraints.map((unique) => unique.getName()),
          ...table.columns.filter((c) => c.isUnique).map((c) => c.uniqueName ?? `${table.name}_${c.name}_unique`),
        ].sort(),
      );
    }
  });

  it("has exactly the triggers and FTS5 tables raw.ts declares, as it writes them", async () => {
    const master = await sqliteMaster();
    const stored = (type: "trigger" | "virtual") =>
      master
        .filter((row) =>
          type === "trigger" ? row.type === "trigger" : row.sql?.startsWith("CREATE VIRTUAL TABLE") === true,
        )
        .map((row) => ({ name: row.name, table: row.tableName, sql: normalized(row.sql!) }))
        .sort((a, b) => a.name.localeCompare(b.name));
    const declared = (objects: typeof TRIGGERS) =>
      objects.map((o) => ({ name: o.name, sql: normalized(o.sql) })).sort((a, b) => a.name.localeCompare(b.name));

    expect(stored("trigger").map(({ name, sql }) => ({ name, sql }))).toEqual(declared(TRIGGERS));
    for (const trigger of stored("trigger")) {
      expect(TRIGGERS.find((t) => t.name === trigger.name)?.table).toBe(trigger.table);
    }
    expect(stored("virtual").map(({ name, sql }) => ({ name, sql }))).toEqual(declared(SEARCH_TABLES));
  });

  it("stores WITHOUT ROWID exactly the tables raw.ts names", async () => {
    const master = await sqliteMaster();
    const withoutRowid = master
      .filter(
        (row) => row.type === "table" && !isShadowOfSearch(row.name) && /\)\s*WITHOUT ROWID\s*$/i.test(row.sql ?? ""),
      )
      .map((row) => row.name);
    expect(withoutRowid.sort()).toEqual([...WITHOUT_ROWID_TABLES].sort());
  });
});
