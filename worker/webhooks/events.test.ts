/**
 * The webhooks' outbox (migration 0018's triggers, docs/webhooks.md): every change to a mapping writes one delivery
 * per webhook of its customer, whichever path made it, with the event and payload the docs describe.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Mapping } from "#contract/responses";
import type { WebhookPayload } from "#contract/webhooks";
import { runDueSchedules } from "../delivery/publish-due";
import { call, createAdmin, createVerifiedCustomer } from "../test/helpers";
import { addWebhook, deliveryRows, receiveWebhooks } from "../test/webhook-receiver";

const HOUR = 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

beforeEach(() => void receiveWebhooks());
afterEach(() => vi.restoreAllMocks());

async function add(apiKey: string, body: object) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Mapping;
}

async function patch(apiKey: string, id: number, body: object) {
  const res = await call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json: body });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The events written since `after` (a row id), with their parsed payloads. */
async function eventsAfter(after = 0) {
  return (await deliveryRows())
    .filter((row) => row.id > after)
    .map((row) => ({ ...row, body: JSON.parse(row.payload) as WebhookPayload }));
}

const lastId = async () => (await deliveryRows()).at(-1)?.id ?? 0;

describe("webhook events written by triggers", () => {
  it("writes mapping.published to every webhook of the customer, with one event id and no HTML", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const first = await addWebhook(apiKey, "https://hooks.one.test/a");
    const second = await addWebhook(apiKey, "https://hooks.two.test/b");
    const other = await createVerifiedCustomer("other@example.com");
    await addWebhook(other.apiKey, "https://hooks.other.test/c");

    const before = Date.now();
    const mapping = await add(apiKey, { url: "https://shop.test/sale", htmlContent: "<p>SECRET-HTML</p>" });
    const events = await eventsAfter();
    expect(events.map((e) => e.webhook_id).sort()).toEqual([first.id, second.id].sort());
    expect(new Set(events.map((e) => e.event_id)).size).toBe(1);
    const [event] = events;
    expect(event!.event).toBe("mapping.published");
    expect(event!.event_id).toMatch(/^[0-9a-f]{32}$/);
    expect(event!.body).toEqual({
      id: event!.event_id,
      type: "mapping.published",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        mapping: {
          id: mapping.id,
          url: "https://shop.test/sale",
          status: "published",
          publishAt: null,
          unpublishAt: null,
          changedBy: "customer",
        },
      },
    });
    expect(Date.parse(event!.body.createdAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(event!.payload).not.toContain("SECRET-HTML");
  });

  it("writes nothing for a new draft, then changed, published, unpublished and deleted as the mapping goes", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    const publishAt = Date.now() + 3 * HOUR;
    const draft = await add(apiKey, { url: "https://shop.test/new", htmlContent: "<p>1</p>", status: "draft" });
    expect(await eventsAfter()).toEqual([]);

    await patch(apiKey, draft.id, { publishAt: iso(publishAt) });
    let mark = 0;
    const next = async () => {
      const events = await eventsAfter(mark);
      mark = await lastId();
      return events.map((e) => [e.event, e.body.data.mapping?.status]);
    };
    expect(await next()).toEqual([["mapping.changed", "draft"]]);
    await patch(apiKey, draft.id, { status: "published" });
    expect(await next()).toEqual([["mapping.published", "published"]]);
    await patch(apiKey, draft.id, { htmlContent: "<p>2</p>" });
    expect(await next()).toEqual([["mapping.changed", "published"]]);
    // The same values again change nothing, so no event.
    await patch(apiKey, draft.id, { htmlContent: "<p>2</p>" });
    expect(await next()).toEqual([]);
    await patch(apiKey, draft.id, { seo: { title: "Sale" } });
    expect(await next()).toEqual([["mapping.changed", "published"]]);
    const status = await call(`/api/mappings/${draft.id}/status`, {
      method: "PATCH",
      apiKey,
      json: { status: "unpublished" },
    });
    expect(status.status).toBe(200);
    expect(await next()).toEqual([["mapping.unpublished", "draft"]]);
    expect((await call(`/api/mappings/${draft.id}`, { method: "DELETE", apiKey })).status).toBe(200);
    const [deleted] = await eventsAfter(mark);
    expect(deleted!.event).toBe("mapping.deleted");
    expect(deleted!.body.data.mapping).toEqual({
      id: draft.id,
      url: "https://shop.test/new",
      status: "draft",
      publishAt: null,
      unpublishAt: null,
      changedBy: null,
    });
  });

  it("carries a mapping's audience and priority, and writes mapping.changed when either changes", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    const audience = { name: "Germany", country: ["DE"] };
    const mapping = await add(apiKey, { url: "https://shop.test/de", htmlContent: "<p>de</p>", audience, priority: 5 });
    let mark = 0;
    const next = async () => {
      const events = await eventsAfter(mark);
      mark = await lastId();
      return events.map((e) => [e.event, e.body.data.mapping?.audience?.name ?? null, e.body.data.mapping?.priority]);
    };
    expect(await next()).toEqual([["mapping.published", "Germany", 5]]);
    await patch(apiKey, mapping.id, { priority: 6 });
    expect(await next()).toEqual([["mapping.changed", "Germany", 6]]);
    await patch(apiKey, mapping.id, { audience: null });
    const [cleared] = await eventsAfter(mark);
    expect(cleared!.event).toBe("mapping.changed");
    // Without an audience, the payload is as it always was.
    expect(Object.keys(cleared!.body.data.mapping!)).toEqual([
      "id",
      "url",
      "status",
      "publishAt",
      "unpublishAt",
      "changedBy",
    ]);
  });

  it("writes the minute cron's publish and unpublish, by the schedule, one event id per mapping", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey, "https://hooks.one.test/a");
    await addWebhook(apiKey, "https://hooks.two.test/b");
    const start = Date.now();
    const publishAt = start + HOUR;
    const unpublishAt = start + 2 * HOUR;
    const a = await add(apiKey, {
      url: "https://shop.test/a",
      htmlContent: "<p>a</p>",
      publishAt: iso(publishAt),
      unpublishAt: iso(unpublishAt),
    });
    const b = await add(apiKey, { url: "https://shop.test/b", htmlContent: "<p>b</p>", publishAt: iso(publishAt) });
    const mark = await lastId();

    await runDueSchedules(env, new Date(publishAt));
    const published = await eventsAfter(mark);
    expect(published).toHaveLength(4);
    for (const event of published) {
      expect(event.event).toBe("mapping.published");
      expect(event.body.data.mapping).toMatchObject({ status: "published", changedBy: "schedule", publishAt: null });
    }
    const ofA = published.filter((e) => e.body.data.mapping!.id === a.id);
    const ofB = published.filter((e) => e.body.data.mapping!.id === b.id);
    expect(ofA[0]!.body.data.mapping!.unpublishAt).toBe(iso(unpublishAt));
    // One event per mapping, shared by both webhooks, though one statement published both.
    expect(new Set(ofA.map((e) => e.event_id)).size).toBe(1);
    expect(new Set(ofB.map((e) => e.event_id)).size).toBe(1);
    expect(ofA[0]!.event_id).not.toBe(ofB[0]!.event_id);

    const mark2 = await lastId();
    await runDueSchedules(env, new Date(unpublishAt));
    const unpublished = await eventsAfter(mark2);
    expect(unpublished.map((e) => [e.event, e.body.data.mapping!.id, e.body.data.mapping!.changedBy])).toEqual([
      ["mapping.unpublished", a.id, "schedule"],
      ["mapping.unpublished", a.id, "schedule"],
    ]);
  });

  it("writes mapping.deleted when an admin deletes a mapping", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    const mapping = await add(apiKey, { url: "https://shop.test/x", htmlContent: "<p>x</p>" });
    const mark = await lastId();
    const admin = await createAdmin();
    const res = await call(`/api/admin/mappings/${mapping.id}`, { method: "DELETE", apiKey: admin.apiKey });
    expect(res.status).toBe(200);
    expect((await eventsAfter(mark)).map((e) => [e.event, e.body.data.mapping!.id])).toEqual([
      ["mapping.deleted", mapping.id],
    ]);
  });

  it("lets an admin delete a customer who has webhooks, deliveries and mappings; nothing of theirs is left", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const hook = await addWebhook(apiKey);
    await add(apiKey, { url: "https://shop.test/1", htmlContent: "<p>1</p>" });
    await add(apiKey, { url: "https://shop.test/2", htmlContent: "<p>2</p>", status: "draft" });
    const other = await createVerifiedCustomer("other@example.com");
    const otherHook = await addWebhook(other.apiKey, "https://hooks.other.test/x");
    await add(other.apiKey, { url: "https://other.test/1", htmlContent: "<p>o</p>" });
    expect((await deliveryRows()).filter((r) => r.webhook_id === hook.id)).toHaveLength(1);

    const admin = await createAdmin();
    const res = await call(`/api/admin/users/${user.id}`, { method: "DELETE", apiKey: admin.apiKey });
    expect(res.status, await res.clone().text()).toBe(200);
    const left = async (table: string, where: string, value: string) =>
      (await env.DB.prepare(`select count(*) as n from ${table} where ${where} = ?`)
        .bind(value)
        .first<{ n: number }>())!.n;
    expect(await left("users", "id", user.id)).toBe(0);
    expect(await left("url_mappings", "user_id", user.id)).toBe(0);
    expect(await left("webhooks", "user_id", user.id)).toBe(0);
    expect(await left("webhook_deliveries", "webhook_id", hook.id)).toBe(0);
    // The other customer's are untouched, and their next change still writes its event.
    expect(await left("webhook_deliveries", "webhook_id", otherHook.id)).toBe(1);
    await add(other.apiKey, { url: "https://other.test/2", htmlContent: "<p>o2</p>" });
    expect(await left("webhook_deliveries", "webhook_id", otherHook.id)).toBe(2);
  });
});
