/**
 * The bound of a webhook's delivery log (db/raw.ts, docs/webhooks.md): the newest FINISHED_DELIVERIES_KEPT delivered
 * or failed deliveries stay, older finished ones go as new ones finish; pending deliveries are never removed.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FINISHED_DELIVERIES_KEPT } from "#contract/webhooks";
import { purgeDeliveries } from "../models/webhooks";
import { createVerifiedCustomer, db } from "../test/helpers";
import { addWebhook, receiveWebhooks } from "../test/webhook-receiver";

beforeEach(() => void receiveWebhooks());
afterEach(() => vi.restoreAllMocks());

/** `count` deliveries of the webhook in one statement, with this status, created `createdAt` ms. */
const insertDeliveries = (webhookId: string, count: number, status: string, createdAt = Date.now()) =>
  env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?2)
     insert into webhook_deliveries (webhook_id, event_id, event, payload, status, created_at, next_attempt_at)
     select ?1, 'e' || i, 'ping', '{}', ?3, ?4, case when ?3 = 'pending' then ?4 end from n`,
  )
    .bind(webhookId, count, status, createdAt)
    .run();

async function logOf(webhookId: string) {
  const rows = await env.DB.prepare(
    `select status, count(*) as n, min(id) as first, max(id) as last from webhook_deliveries
     where webhook_id = ? group by status = 'pending'`,
  )
    .bind(webhookId)
    .all<{ status: string; n: number; first: number; last: number }>();
  const pending = rows.results.find((r) => r.status === "pending");
  const finished = rows.results.find((r) => r.status !== "pending");
  const counted = await env.DB.prepare("select finished_deliveries as n from webhooks where id = ?")
    .bind(webhookId)
    .first<{ n: number }>();
  return { pending, finished, counted: counted!.n };
}

describe("a webhook's delivery log", () => {
  it(`keeps the newest ${FINISHED_DELIVERIES_KEPT} finished deliveries, as they finish or are written finished`, async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = await addWebhook(apiKey);
    const other = await addWebhook(apiKey, "https://hooks.other.test/dc");
    await insertDeliveries(other.id, 10, "delivered");
    await insertDeliveries(id, FINISHED_DELIVERIES_KEPT + 50, "pending");
    const { last: newest } = (await logOf(id)).pending!;
    // Every one of them finishes (one statement, row by row, as a cron's batch would): past the bound, the oldest go.
    await env.DB.prepare(
      "update webhook_deliveries set status = 'delivered', next_attempt_at = null where webhook_id = ?",
    )
      .bind(id)
      .run();
    let log = await logOf(id);
    expect(log.finished!.n).toBeLessThanOrEqual(FINISHED_DELIVERIES_KEPT);
    expect(log.finished!.n).toBeGreaterThanOrEqual(FINISHED_DELIVERIES_KEPT - 100);
    expect(log.finished!.last).toBe(newest);
    expect(log.finished!.last - log.finished!.first + 1).toBe(log.finished!.n);
    expect(log.counted).toBe(log.finished!.n);

    // New pending ones are never removed, however many finish after them; rows written finished count too.
    await insertDeliveries(id, 30, "pending");
    await insertDeliveries(id, 2 * FINISHED_DELIVERIES_KEPT, "failed");
    log = await logOf(id);
    expect(log.pending!.n).toBe(30);
    expect(log.finished!.n).toBeLessThanOrEqual(FINISHED_DELIVERIES_KEPT);
    expect(log.counted).toBe(log.finished!.n);
    // Another webhook's log is its own.
    expect((await logOf(other.id)).finished!.n).toBe(10);
  });

  it("counts what the 30-day purge removes, so the bound stays exact", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = await addWebhook(apiKey);
    await insertDeliveries(id, 40, "delivered", Date.now() - 31 * 86_400_000);
    await insertDeliveries(id, 5, "delivered");
    await purgeDeliveries(db(), new Date(Date.now() - 30 * 86_400_000));
    const log = await logOf(id);
    expect(log.finished!.n).toBe(5);
    expect(log.counted).toBe(5);
  });
});
