import { env } from "cloudflare:workers";
import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimitEvents, users } from "../../db/schema";
import { db } from "../helpers";
import { expectRefused } from "./expect-refused";
import { utf8Length } from "#contract/input-caps";

const numbers = (n: number) => Array.from({ length: n }, (_, i) => i);
const withParameters = (n: number) =>
  env.DB.prepare(
    `select count(*) as n from (select 1) where 0 in (${numbers(n)
      .map(() => "?")
      .join(", ")})`,
  ).bind(...numbers(n));
/** A valid statement of exactly `bytes` bytes. */
const sqlOfBytes = (bytes: number) => {
  const head = "select 1 as v /*";
  return `${head}${"x".repeat(bytes - head.length - 2)}*/`;
};

describe("D1 with production's limits", () => {
  it("binds 100 parameters and refuses 101, on first, all, run and raw", async () => {
    expect(await withParameters(100).first("n")).toBe(1);
    expect((await withParameters(100).all()).results).toEqual([{ n: 1 }]);
    const message = "101 bound parameters in one statement; the limit is 100";
    await expectRefused(() => withParameters(101).first(), message);
    await expectRefused(() => withParameters(101).all(), message);
    await expectRefused(() => withParameters(101).run(), message);
    await expectRefused(() => withParameters(101).raw(), message);
  });

  it("counts numbered parameters as SQLite does: ?101 needs 101 even with one value bound", async () => {
    expect(
      await env.DB.prepare("select ?100 as v")
        .bind(...numbers(100))
        .first("v"),
    ).toBe(99);
    await expectRefused(() => env.DB.prepare("select ?101 as v").bind(1).first(), "101 bound parameters");
  });

  it("does not count a ? inside a string literal, a quoted name or a comment", async () => {
    const sql = `select '?' as "?", ? as v -- ?\n/* ? */`;
    expect(await env.DB.prepare(sql).bind(7).first("v")).toBe(7);
  });

  it("runs a statement of 100,000 bytes and refuses one of 100,001", async () => {
    expect(utf8Length(sqlOfBytes(100_000))).toBe(100_000);
    expect(await env.DB.prepare(sqlOfBytes(100_000)).first("v")).toBe(1);
    await expectRefused(
      () => env.DB.prepare(sqlOfBytes(100_001)).first(),
      "an SQL statement of 100,001 bytes; the limit is 100,000 bytes",
    );
  });

  it("binds a string of 2,000,000 bytes and refuses one byte more, counted in UTF-8 bytes, not characters", async () => {
    expect(await env.DB.prepare("select length(?) as n").bind("x".repeat(2_000_000)).first("n")).toBe(2_000_000);
    const euros = "€".repeat(666_667); // 666,667 characters, 2,000,001 bytes
    await expectRefused(
      () => env.DB.prepare("select length(?) as n").bind(euros).first(),
      "bound value 1 has 2,000,001 bytes; a string or BLOB may have at most 2,000,000 bytes",
    );
  });

  it("refuses a BLOB over 2,000,000 bytes", async () => {
    expect(await env.DB.prepare("select length(?) as n").bind(new Uint8Array(2_000_000)).first("n")).toBe(2_000_000);
    await expectRefused(
      () => env.DB.prepare("select length(?) as n").bind(new Uint8Array(2_000_001)).first(),
      "bound value 1 has 2,000,001 bytes",
    );
  });

  it("refuses a statement whose values together exceed what one row may hold", async () => {
    const half = "x".repeat(1_000_000);
    const sql = "select length(?1) + length(?2) as n";
    expect(await env.DB.prepare(sql).bind(half, half).first("n")).toBe(2_000_000);
    await expectRefused(
      () => env.DB.prepare(sql).bind(half, `${half}x`).first(),
      "one statement binds 2,000,001 bytes, more than a row may hold (2,000,000 bytes)",
    );
  });

  it("refuses a row over 2,000,000 bytes read back, which production could not have stored", async () => {
    const value = "x".repeat(1_000_001);
    await expectRefused(
      () => env.DB.prepare("select ?1 as a, ?1 as b").bind(value).all(),
      "a row of 2,000,002 bytes was read back",
    );
  });

  it("takes a LIKE or GLOB pattern of 50 bytes and refuses one of 51", async () => {
    const pattern = (bytes: number) => `%${"a".repeat(bytes - 2)}%`;
    expect(await env.DB.prepare("select 'abc' like ? as m").bind(pattern(50)).first("m")).toBe(0);
    await expectRefused(
      () => env.DB.prepare("select 'abc' like ? as m").bind(pattern(51)).first(),
      "a LIKE/GLOB pattern of 51 bytes (parameter 1); the limit is 50 bytes",
    );
    await expectRefused(
      () => env.DB.prepare("select ?1 as v where 'abc' not glob ?2").bind(1, pattern(51)).first(),
      "(parameter 2)",
    );
  });

  it("checks every statement of a batch before any of them runs", async () => {
    const insert = () => env.DB.prepare("insert into rate_limit_events (bucket) values (?)").bind("x");
    await expectRefused(() => env.DB.batch([insert(), withParameters(101)]), "101 bound parameters");
    expect(await db().$count(rateLimitEvents)).toBe(0);
    await env.DB.batch([insert(), withParameters(100)]);
    expect(await db().$count(rateLimitEvents)).toBe(1);
  });

  it("checks each line of exec(), which the binding sends as one query", async () => {
    await env.DB.exec("select 1;\nselect 2;");
    await expectRefused(() => env.DB.exec(`select 1;\n${sqlOfBytes(100_001)}`), "exec() with a line of 100,001 bytes");
  });

  it("applies the same limits in a session", async () => {
    const session = env.DB.withSession();
    expect(await session.prepare("select ? as v").bind(1).first("v")).toBe(1);
    await expectRefused(
      () =>
        session
          .prepare(`select 1 where 0 in (${numbers(101).map(() => "?")})`)
          .bind(...numbers(101))
          .all(),
      "101 bound parameters",
    );
  });

  it("refuses Drizzle's inArray over more than 100 values", async () => {
    const ids = (n: number) => numbers(n).map(String);
    expect(
      await db()
        .select()
        .from(users)
        .where(inArray(users.id, ids(100))),
    ).toEqual([]);
    await expectRefused(
      () =>
        db()
          .select()
          .from(users)
          .where(inArray(users.id, ids(101))),
      "101 bound parameters",
    );
  });
});
