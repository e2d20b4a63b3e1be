/**
 * Sending webhook events (docs/webhooks.md): signed so that the webhook's secret verifies them, sent right after the
 * customer's change and by the minute cron, retried with backoff until the sixth attempt gives up, never sent twice
 * at once by two senders, and the log purged after 30 days.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Mapping } from "#contract/responses";
import { createDb } from "../db/client";
import { claimDueDeliveries, resealAllWebhookSecrets } from "../models/webhooks";
import { runDaily, runEveryMinute } from "../scheduled";
import { secretKeys } from "../lib/crypto";
import { call, createVerifiedCustomer, testEnv } from "../test/helpers";
import { addWebhook, deliveryRows, receiveWebhooks, RECEIVER_URL, type DeliveryRow } from "../test/webhook-receiver";
import { standInDns } from "../test/websites";
import { forgetResolutions } from "../http/outbound-target";
import { IMMEDIATE_SENDS } from "./after-change";
import {
  CRON_BATCHES,
  FAILING_TARGET_ATTEMPTS,
  LEASE_MS,
  MAX_ATTEMPTS,
  PER_ACCOUNT_PER_BATCH,
  RETRY_DELAYS_MS,
  sendDue,
  sendDueWebhooks,
} from "./dispatch";
import { verifySignature } from "./sign";
import { WEBHOOK_PROBLEMS } from "./target";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

afterEach(() => vi.restoreAllMocks());

async function add(apiKey: string, url: string, extras: object = {}) {
  const res = await call("/api/mappings", {
    method: "POST",
    apiKey,
    json: { url, htmlContent: "<p>x</p>", ...extras },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Mapping;
}

/** A published mapping written straight to D1: its trigger writes the events, and no request sends them. */
async function insertPublished(userId: string, normalizedUrl: string) {
  await env.DB.prepare(
    "insert into url_mappings (url, normalized_url, html_content, user_id, published_at, changed_by) values (?, ?, '<p>x</p>', ?, ?, 'customer')",
  )
    .bind(`https://${normalizedUrl}`, normalizedUrl, userId, Date.now())
    .run();
}

const only = async (): Promise<DeliveryRow> => {
  const rows = await deliveryRows();
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

describe("sending webhook events", () => {
  it("sends the event right after the customer's change, signed with the webhook's secret", async () => {
    const receiver = receiveWebhooks();
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const hook = await addWebhook(apiKey);
    const mapping = await add(apiKey, "https://shop.test/sale");

    // `call` waits for the request's background work: the middleware sent it, no cron ran.
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const row = await only();
    expect(request!.url).toBe(hook.url);
    expect(request!.redirect).toBe("manual");
    expect(request!.headers.get("Content-Type")).toBe("application/json");
    expect(request!.headers.get("X-DC-Event")).toBe("mapping.published");
    expect(request!.headers.get("X-DC-Delivery")).toBe(String(row.id));
    expect(request!.body).toBe(row.payload);
    expect(JSON.parse(request!.body)).toMatchObject({ data: { mapping: { id: mapping.id } } });

    const signature = request!.headers.get("X-DC-Signature")!;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(await verifySignature(hook.secret, signature, request!.body, new Date())).toBe(true);
    // Another secret, another body or an old timestamp do not verify.
    expect(await verifySignature(`${hook.secret}x`, signature, request!.body, new Date())).toBe(false);
    expect(await verifySignature(hook.secret, signature, `${request!.body} `, new Date())).toBe(false);
    expect(await verifySignature(hook.secret, signature, request!.body, new Date(Date.now() + 10 * MINUTE))).toBe(
      false,
    );
    // An independent HMAC-SHA256 of "<t>.<body>", as a receiver in any language computes it.
    const t = signature.match(/t=(\d+)/)![1]!;
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(hook.secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${request!.body}`));
    expect(signature).toBe(`t=${t},v1=${Buffer.from(mac).toString("hex")}`);

    expect(await only()).toMatchObject({ status: "delivered", attempts: 1, response_status: 204, error: null });
    expect((await only()).next_attempt_at).toBeNull();
  });

  it("retries a 500 after 1 min, 5 min, 30 min, 2 h and 12 h, then gives up after the sixth attempt", async () => {
    const receiver = receiveWebhooks(() => new Response("boom", { status: 500 }));
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    await add(apiKey, "https://shop.test/sale");
    // The middleware's attempt was the first.
    expect(await only()).toMatchObject({ status: "pending", attempts: 1, response_status: 500, error: "HTTP 500" });
    expect(RETRY_DELAYS_MS).toEqual([MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 720 * MINUTE]);

    let clock = (await only()).last_attempt_at!;
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      const delay = RETRY_DELAYS_MS[attempt - 2]!;
      expect((await only()).next_attempt_at).toBe(clock + delay);
      // Not a moment before its time, whoever sends.
      expect(await sendDue(env, { limit: 50, now: new Date(clock + delay - 1) })).toEqual({
        attempted: 0,
        delivered: 0,
      });
      clock += delay;
      await runEveryMinute(env, new Date(clock));
      expect(await only()).toMatchObject({ attempts: attempt, last_attempt_at: clock, response_status: 500 });
    }
    expect(await only()).toMatchObject({ status: "failed", attempts: 6, next_attempt_at: null, error: "HTTP 500" });
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    // Given up: later runs leave it.
    await runEveryMinute(env, new Date(clock + 30 * DAY));
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
  });

  it("retries after a network error and a timeout, and delivers when the receiver answers", async () => {
    const receiver = receiveWebhooks(() => {
      throw new TypeError("Network connection lost.");
    });
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    await add(apiKey, "https://shop.test/sale");
    const first = await only();
    expect(first).toMatchObject({ status: "pending", attempts: 1, response_status: null });
    expect(first.error).toBe("Could not connect");
    expect(first.next_attempt_at).toBe(first.last_attempt_at! + MINUTE);

    receiver.answerWith(() => {
      throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    });
    await sendDue(env, { limit: 50, now: new Date(first.next_attempt_at!) });
    const second = await only();
    expect(second).toMatchObject({ status: "pending", attempts: 2, error: "No answer within 10 s" });
    expect(second.next_attempt_at).toBe(first.next_attempt_at! + 5 * MINUTE);

    receiver.answerWith(() => new Response("ok"));
    await sendDue(env, { limit: 50, now: new Date(second.next_attempt_at!) });
    expect(await only()).toMatchObject({ status: "delivered", attempts: 3, response_status: 200, error: null });
    expect(receiver.received).toHaveLength(3);
    // Every attempt carried the same delivery id and body, so a receiver can drop a repeat.
    expect(new Set(receiver.received.map((r) => r.headers.get("X-DC-Delivery"))).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
  });

  it("resolves the webhook's name again before each attempt, in production: a name turned private is never called", async () => {
    const receiver = receiveWebhooks();
    const dns = standInDns();
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const hooks = new URL(RECEIVER_URL).hostname;
    dns.addresses.set(hooks, ["93.184.216.34"]);
    const production = testEnv({ ENVIRONMENT: "production" });
    const created = await call("/api/webhooks", { method: "POST", apiKey, json: { url: RECEIVER_URL } }, production);
    expect(created.status).toBe(201);

    // The name now answers 127.0.0.1, and the minute it was kept has passed.
    dns.addresses.set(hooks, ["127.0.0.1"]);
    forgetResolutions();
    await insertPublished(user.id, "shop.test/sale");
    expect(await sendDue(production, { limit: 50 })).toEqual({ attempted: 1, delivered: 0 });
    expect(receiver.received).toEqual([]);
    expect(await only()).toMatchObject({ status: "failed", attempts: 1, error: WEBHOOK_PROBLEMS["private-address"] });

    // A resolver that cannot answer leaves the delivery to a later attempt.
    dns.down = true;
    forgetResolutions();
    await insertPublished(user.id, "shop.test/other");
    await sendDue(production, { limit: 50 });
    const rows = await deliveryRows();
    expect(rows[1]).toMatchObject({ status: "pending", attempts: 1, error: WEBHOOK_PROBLEMS.unresolved });
    expect(receiver.received).toEqual([]);
  });

  it("turns 20 quick changes to 10 webhooks into at most 3 changes' POSTs at once; the cron sends the rest 20 a run, none lost", async () => {
    const receiver = receiveWebhooks();
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    for (let i = 0; i < 10; i++) await addWebhook(apiKey, `https://hooks.shop.test/${i}`);
    const mapping = await add(apiKey, "https://shop.test/sale");
    for (let i = 0; i < 19; i++) {
      const res = await call(`/api/mappings/${mapping.id}`, {
        method: "PATCH",
        apiKey,
        json: { htmlContent: `<p>${i}</p>` },
      });
      expect(res.status).toBe(200);
    }
    const rows = await deliveryRows();
    expect(rows).toHaveLength(200);
    // Three changes a minute are sent at once (10 deliveries each); the other 170 wait, recorded as pending.
    expect(receiver.received).toHaveLength(IMMEDIATE_SENDS.max * 10);
    expect(rows.filter((r) => r.status === "pending" && r.attempts === 0)).toHaveLength(200 - 30);

    let runs = 0;
    while ((await deliveryRows()).some((r) => r.status !== "delivered") && runs < 20) {
      const sent = receiver.received.length;
      await sendDueWebhooks(env, new Date(Date.now() + runs * MINUTE));
      expect(receiver.received.length - sent).toBeLessThanOrEqual(CRON_BATCHES * PER_ACCOUNT_PER_BATCH);
      runs++;
    }
    expect(runs).toBe(Math.ceil(170 / (CRON_BATCHES * PER_ACCOUNT_PER_BATCH)));
    expect(receiver.received).toHaveLength(200);
  }, 30_000);

  it("shares a cron run between customers: one customer's backlog does not hold back another's events", async () => {
    const receiver = receiveWebhooks();
    const busy = await createVerifiedCustomer("busy@example.com");
    const quiet = await createVerifiedCustomer("quiet@example.com");
    await addWebhook(busy.apiKey, "https://hooks.busy.test/x");
    await addWebhook(quiet.apiKey, "https://hooks.quiet.test/x");
    for (let i = 0; i < 300; i++) await insertPublished(busy.user.id, `busy.test/${i}`);
    await insertPublished(quiet.user.id, "quiet.test/a");
    await sendDueWebhooks(env, new Date(Date.now() + 1_000));
    expect(receiver.received.filter((r) => r.url.includes("quiet"))).toHaveLength(1);
    expect(receiver.received.filter((r) => r.url.includes("busy"))).toHaveLength(CRON_BATCHES * PER_ACCOUNT_PER_BATCH);
  }, 30_000);

  it(`stops retrying for a webhook whose last ${FAILING_TARGET_ATTEMPTS} attempts failed, until one is delivered`, async () => {
    const receiver = receiveWebhooks(() => new Response(null, { status: 500 }));
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const hook = await addWebhook(apiKey);
    for (let i = 0; i < FAILING_TARGET_ATTEMPTS; i++) await insertPublished(user.id, `shop.test/${i}`);
    await sendDue(env, { limit: 50, now: new Date(Date.now() + 1_000) });
    // Ten first attempts failed: each is retried as usual.
    expect((await deliveryRows()).every((r) => r.status === "pending" && r.attempts === 1)).toBe(true);
    const failures = () =>
      env.DB.prepare("select consecutive_failures as n from webhooks where id = ?")
        .bind(hook.id)
        .first<{ n: number }>();
    expect(await failures()).toEqual({ n: FAILING_TARGET_ATTEMPTS });

    // The next event gets its one attempt and no retry: recorded as failed, with the reason.
    await insertPublished(user.id, "shop.test/next");
    await sendDue(env, { limit: 1, now: new Date(Date.now() + 2_000) });
    const next = (await deliveryRows()).at(-1)!;
    expect(next).toMatchObject({ status: "failed", attempts: 1, next_attempt_at: null });
    expect(next.error).toBe(`HTTP 500; not retried: the webhook's last ${FAILING_TARGET_ATTEMPTS} attempts failed`);

    // A delivered attempt ends the run: retries as usual again.
    receiver.answerWith(() => new Response(null, { status: 204 }));
    await sendDue(env, { limit: 1, now: new Date(Date.now() + 2 * MINUTE) });
    expect(await failures()).toEqual({ n: 0 });
  });

  it("sends only the change's own events after it; an older backlog is the cron's", async () => {
    const receiver = receiveWebhooks(() => new Response(null, { status: 503 }));
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    const mapping = await add(apiKey, "https://shop.test/sale");
    const [failed] = await deliveryRows();
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    // Its retry has been due for ten minutes, and no cron has run.
    await env.DB.prepare("update webhook_deliveries set next_attempt_at = ? where id = ?")
      .bind(Date.now() - 10 * MINUTE, failed!.id)
      .run();

    receiver.answerWith(() => new Response(null, { status: 204 }));
    const res = await call(`/api/mappings/${mapping.id}`, {
      method: "PATCH",
      apiKey,
      json: { htmlContent: "<p>y</p>" },
    });
    expect(res.status).toBe(200);
    const [old, changed] = await deliveryRows();
    expect(changed).toMatchObject({ event: "mapping.changed", status: "delivered", attempts: 1 });
    expect(old).toMatchObject({ event: "mapping.published", status: "pending", attempts: 1 });

    await runEveryMinute(env);
    expect((await deliveryRows())[0]).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    receiveWebhooks(() => new Response(null, { status: 302, headers: { Location: "http://169.254.169.254/" } }));
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    await add(apiKey, "https://shop.test/sale");
    expect(await only()).toMatchObject({
      status: "pending",
      response_status: 302,
      error: "Redirect (HTTP 302) not followed",
    });
  });

  it("never sends one delivery twice when two senders run at once", async () => {
    const receiver = receiveWebhooks(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return new Response(null, { status: 204 });
    });
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    for (let i = 0; i < 3; i++) await addWebhook(apiKey, `https://hooks.shop${i}.test/dc`);
    // Written straight to D1, so that no request's own sending takes them first.
    for (let i = 0; i < 8; i++) await insertPublished(user.id, `shop.test/${i}`);
    expect(await deliveryRows()).toHaveLength(24);

    const now = new Date(Date.now() + 1_000);
    const results = await Promise.all([
      sendDue(env, { limit: 50, now }),
      sendDue(env, { limit: 50, now }),
      sendDue(env, { userId: user.id, limit: 20, now }),
    ]);
    expect(results.reduce((sum, r) => sum + r.attempted, 0)).toBe(24);
    const sent = receiver.received.map((r) => r.headers.get("X-DC-Delivery"));
    expect(sent).toHaveLength(24);
    expect(new Set(sent).size).toBe(24);
    expect((await deliveryRows()).every((r) => r.status === "delivered" && r.attempts === 1)).toBe(true);
  });

  it("leaves a claimed delivery alone until its lease ends, then another sender takes it", async () => {
    const receiver = receiveWebhooks();
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    await insertPublished(user.id, "shop.test/a");
    const now = new Date(Date.now() + 1_000);
    // A sender claims it and dies before sending.
    expect(await claimDueDeliveries(createDb(env.DB), now, new Date(now.getTime() + LEASE_MS), 50)).toHaveLength(1);
    expect(await sendDue(env, { limit: 50, now: new Date(now.getTime() + LEASE_MS - 1) })).toEqual({
      attempted: 0,
      delivered: 0,
    });
    expect(receiver.received).toHaveLength(0);
    expect(await sendDue(env, { limit: 50, now: new Date(now.getTime() + LEASE_MS) })).toEqual({
      attempted: 1,
      delivered: 1,
    });
    expect(await only()).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("sends the events of the minute cron's schedules in the same run", async () => {
    const receiver = receiveWebhooks();
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    const publishAt = Date.now() + 60 * MINUTE;
    await add(apiKey, "https://shop.test/later", { publishAt: new Date(publishAt).toISOString() });
    expect(receiver.received).toHaveLength(0);
    await runEveryMinute(env, new Date(publishAt));
    expect(receiver.received.map((r) => r.headers.get("X-DC-Event"))).toEqual(["mapping.published"]);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ data: { mapping: { changedBy: "schedule" } } });
    expect(await only()).toMatchObject({ status: "delivered" });
  });

  it("keeps the delivery log 30 days: the daily cron purges older deliveries", async () => {
    receiveWebhooks();
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await addWebhook(apiKey);
    await add(apiKey, "https://shop.test/old");
    const created = (await env.DB.prepare("select created_at from webhook_deliveries").first<{ created_at: number }>())!
      .created_at;
    await runDaily(env, new Date(created + 30 * DAY - MINUTE));
    expect(await deliveryRows()).toHaveLength(1);
    await runDaily(env, new Date(created + 30 * DAY + MINUTE));
    expect(await deliveryRows()).toHaveLength(0);
  });

  it("keeps signing with the same secret after APP_SECRET is rotated, sealing it again on use", async () => {
    const receiver = receiveWebhooks();
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const hook = await addWebhook(apiKey);
    const before = await sealedSecret(hook.id);
    const rotated = rotatedEnv();

    await insertPublished(user.id, "shop.test/rotated");
    expect(await sendDue(rotated, { limit: 50, now: new Date(Date.now() + 1_000) })).toEqual({
      attempted: 1,
      delivered: 1,
    });
    expect(
      await verifySignature(
        hook.secret,
        receiver.received[0]!.headers.get("X-DC-Signature")!,
        receiver.received[0]!.body,
        new Date(),
      ),
    ).toBe(true);
    expect(await sealedSecret(hook.id)).not.toBe(before);

    // With the previous secret gone, the webhook still signs with its own secret.
    const newOnly = testEnv({ APP_SECRET: rotated.APP_SECRET, APP_SECRET_PREVIOUS: undefined });
    await insertPublished(user.id, "shop.test/after");
    expect(await sendDue(newOnly, { limit: 50, now: new Date(Date.now() + 2_000) })).toEqual({
      attempted: 1,
      delivered: 1,
    });
    expect(
      await verifySignature(
        hook.secret,
        receiver.received[1]!.headers.get("X-DC-Signature")!,
        receiver.received[1]!.body,
        new Date(),
      ),
    ).toBe(true);
  });

  it("seals every webhook secret again under a new APP_SECRET with the operator's reseal", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const hooks = [await addWebhook(apiKey), await addWebhook(apiKey, "https://hooks.two.test/b")];
    const before = await Promise.all(hooks.map((h) => sealedSecret(h.id)));
    const keys = secretKeys(rotatedEnv());
    expect(await resealAllWebhookSecrets(createDb(env.DB), keys, 1)).toEqual({
      checked: 2,
      resealed: 2,
      unreadable: 0,
    });
    const after = await Promise.all(hooks.map((h) => sealedSecret(h.id)));
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(await resealAllWebhookSecrets(createDb(env.DB), keys)).toEqual({ checked: 2, resealed: 0, unreadable: 0 });
  });
});

/** The new APP_SECRET, with the one the webhooks were sealed under as APP_SECRET_PREVIOUS. */
const rotatedEnv = () =>
  testEnv({ APP_SECRET: "a-new-secret-0123456789abcdef0123456789", APP_SECRET_PREVIOUS: env.APP_SECRET });

async function sealedSecret(id: string) {
  const row = await env.DB.prepare("select secret_encrypted as s from webhooks where id = ?")
    .bind(id)
    .first<{ s: string }>();
  return row!.s;
}
