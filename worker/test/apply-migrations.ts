import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach } from "vitest";

/**
 * Every migration's statements, run as one batch: what `applyD1Migrations` of cloudflare:test does in a round trip
 * per migration (37 of them, most of each test's setup), with the same `d1_migrations` records.
 */
const MIGRATE = [
  `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
  ...env.TEST_MIGRATIONS.flatMap((m) => m.queries),
  `INSERT INTO d1_migrations (name) SELECT value FROM json_each(?1)`,
];
const names = JSON.stringify(env.TEST_MIGRATIONS.map((m) => m.name));

// Every test starts from an empty, migrated database and empty KV.
beforeEach(async () => {
  await reset();
  await env.DB.batch(
    MIGRATE.map((sql, i) => (i === MIGRATE.length - 1 ? env.DB.prepare(sql).bind(names) : env.DB.prepare(sql))),
  );
});
