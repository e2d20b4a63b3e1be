import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { analytics } from "../db/schema";
import { createVerifiedCustomer, db } from "../test/helpers";
import { archiveLegacyRows, purgeRawWindow, rawRetentionDays } from "./retention";

const DAY = 86_400_000;

/** Ledger rows (one batch, one second each) at the given ages in days. */
async function ledgerRowsAged(now: number, ages: number[]) {
  for (const [i, age] of ages.entries()) {
    await env.DB.prepare("insert into analytics_ledger (second, batch, message_ids) values (?, ?, ?)")
      .bind(Math.floor((now - age * DAY) / 1000), `b${i}`, JSON.stringify([`m${i}`]))
      .run();
  }
}

const ledgerBatches = async () =>
  (await env.DB.prepare("select batch from analytics_ledger order by batch").all<{ batch: string }>()).results.map(
    (r) => r.batch,
  );

describe("the ledger in D1", () => {
  it("keeps 7 days by default and as many as ANALYTICS_RAW_RETENTION_DAYS says", async () => {
    expect(rawRetentionDays({ ...env, ANALYTICS_RAW_RETENTION_DAYS: undefined })).toBe(7);
    expect(rawRetentionDays({ ...env, ANALYTICS_RAW_RETENTION_DAYS: "2" })).toBe(2);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (const bad of ["0", "-1", "1.5", "seven"]) {
      expect(rawRetentionDays({ ...env, ANALYTICS_RAW_RETENTION_DAYS: bad })).toBe(7);
    }
    expect(warn).toHaveBeenCalledTimes(4);
    warn.mockRestore();

    const now = Date.now();
    await ledgerRowsAged(now, [0, 1.5, 6.9, 7.1, 30]);
    expect(await purgeRawWindow(env, new Date(now))).toBe(2);
    expect(await ledgerBatches()).toEqual(["b0", "b1", "b2"]);
    expect(await purgeRawWindow({ ...env, ANALYTICS_RAW_RETENTION_DAYS: "1" }, new Date(now))).toBe(2);
    expect(await ledgerBatches()).toEqual(["b0"]);
  });

  it("purges in chunks of 1,000 rows, at most 50 per run", async () => {
    const now = Date.now();
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 2500)
       insert into analytics_ledger (second, batch, message_ids) select ?, 'b' || i, '[]' from n`,
    )
      .bind(Math.floor((now - 10 * DAY) / 1000))
      .run();
    const run = vi.spyOn(env.DB, "prepare");
    expect(await purgeRawWindow(env, new Date(now))).toBe(2_500);
    expect(run.mock.calls.filter(([sql]) => sql.startsWith("delete"))).toHaveLength(3);
    run.mockRestore();
  });

  it("moves the legacy per-request rows to the R2 archive and out of D1", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    await db()
      .insert(analytics)
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          messageId: `legacy-${i}`,
          url: `https://shop.test/${i}`,
          timestamp: new Date(1_700_000_000_000 + i),
          userId: user.id,
        })),
      );
    expect(await archiveLegacyRows(env)).toBe(5);
    expect(await db().select().from(analytics)).toEqual([]);
    const listed = await env.ANALYTICS_ARCHIVE.list({ prefix: "raw/legacy/" });
    expect(listed.objects).toHaveLength(1);
    const object = (await env.ANALYTICS_ARCHIVE.get(listed.objects[0]!.key))!;
    const text = await new Response(object.body.pipeThrough(new DecompressionStream("gzip"))).text();
    const lines = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { messageId: string; timestamp: number });
    expect(lines.map((l) => l.messageId)).toEqual(["legacy-0", "legacy-1", "legacy-2", "legacy-3", "legacy-4"]);
    expect(lines[0]!.timestamp).toBe(1_700_000_000_000);
    expect(await archiveLegacyRows(env)).toBe(0);
  });

  it("is purged by the daily cron", async () => {
    const now = Date.now();
    await ledgerRowsAged(now, [1, 8]);
    const { runDaily } = await import("../scheduled");
    await runDaily(env, new Date(now));
    expect(await ledgerBatches()).toEqual(["b0"]);
  });
});
