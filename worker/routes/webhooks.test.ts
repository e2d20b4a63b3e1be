/**
 * The webhooks API (docs/webhooks.md): register a URL (its secret answered once, stored sealed), list, delete, the
 * delivery log and the test ping; what a URL may be; the limit per customer; another customer's webhook is a 404.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOO_MANY_WEBHOOKS, type CreatedWebhook, type Webhook, type WebhookDelivery } from "#contract/webhooks";
import { call, createVerifiedCustomer, testEnv } from "../test/helpers";
import { appRoutes } from "../test/route-matrix";
import { addWebhook, receiveWebhooks, RECEIVER_URL, type ReceivedWebhook } from "../test/webhook-receiver";
import { verifySignature } from "../webhooks/sign";
import {
  WEBHOOK_HTTPS_ONLY,
  WEBHOOK_NO_CREDENTIALS,
  WEBHOOK_NOT_OURS,
  WEBHOOK_PRIVATE_ADDRESS,
  WEBHOOK_PUBLIC_HOST,
  WEBHOOK_UNRESOLVED,
} from "../webhooks/target";
import { standInDns } from "../test/websites";

let received: ReceivedWebhook[];
beforeEach(() => void ({ received } = receiveWebhooks()));
afterEach(() => vi.restoreAllMocks());

const create = (apiKey: string, body: unknown, e = testEnv()) =>
  call("/api/webhooks", { method: "POST", apiKey, json: body }, e);

async function errorOf(res: Response) {
  return { status: res.status, error: ((await res.json()) as { error: string }).error };
}

describe("the webhooks API", () => {
  it("creates a webhook with a secret shown once, lists it without the secret, and deletes it", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await create(apiKey, { url: "  https://hooks.shop.test/dc  " });
    expect(res.status).toBe(201);
    const created = (await res.json()) as CreatedWebhook;
    expect(created).toEqual({
      id: expect.stringMatching(/^wh_[A-Za-z0-9_-]{22}$/),
      url: "https://hooks.shop.test/dc",
      createdAt: expect.any(String),
      lastDelivery: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });

    // Stored sealed: the row does not hold the secret.
    const row = await env.DB.prepare("select * from webhooks where id = ?").bind(created.id).first();
    expect(JSON.stringify(row)).not.toContain(created.secret);
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));

    const list = await call("/api/webhooks", { apiKey });
    expect(list.status).toBe(200);
    expect(list.headers.get("X-Total-Count")).toBe("1");
    const text = await list.text();
    expect(text).not.toContain(created.secret);
    const { secret: _, ...shown } = created;
    expect(JSON.parse(text)).toEqual([shown]);

    const deleted = await call(`/api/webhooks/${created.id}`, { method: "DELETE", apiKey });
    expect(await deleted.json()).toEqual({ message: "Webhook deleted successfully" });
    expect(await (await call("/api/webhooks", { apiKey })).json()).toEqual([]);
    expect((await call(`/api/webhooks/${created.id}`, { method: "DELETE", apiKey })).status).toBe(404);
  });

  it("shows the newest delivery in the list", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const hook = await addWebhook(apiKey);
    await call("/api/mappings", { method: "POST", apiKey, json: { url: "https://shop.test/a", htmlContent: "a" } });
    const [listed] = (await (await call("/api/webhooks", { apiKey })).json()) as Webhook[];
    expect(listed!.id).toBe(hook.id);
    expect(listed!.lastDelivery).toEqual({
      event: "mapping.published",
      status: "delivered",
      responseStatus: 204,
      createdAt: expect.stringMatching(/Z$/),
    });
  });

  it("refuses what is not an http(s) URL of at most 2,048 characters", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect(await errorOf(await create(apiKey, {}))).toMatchObject({ status: 400 });
    expect(await errorOf(await create(apiKey, { url: "not a url" }))).toEqual({
      status: 400,
      error: "Please enter a valid URL",
    });
    expect(await errorOf(await create(apiKey, { url: "ftp://hooks.shop.test/x" }))).toEqual({
      status: 400,
      error: "URL must start with http:// or https://",
    });
    expect(await errorOf(await create(apiKey, { url: `https://hooks.shop.test/${"a".repeat(2_048)}` }))).toEqual({
      status: 400,
      error: "URL must be at most 2,048 characters",
    });
    expect(await errorOf(await create(apiKey, { url: "https://user:pass@hooks.shop.test/x" }))).toEqual({
      status: 400,
      error: WEBHOOK_NO_CREDENTIALS,
    });
    expect(await (await call("/api/webhooks", { apiKey })).json()).toEqual([]);
  });

  it("in production takes https to a public host only; in development loopback http too", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const production = testEnv({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "https://app.dynamic-content.test" });
    const refusals: [string, string][] = [
      ["http://hooks.shop.test/x", WEBHOOK_HTTPS_ONLY],
      ["https://127.0.0.1/x", WEBHOOK_PUBLIC_HOST],
      ["https://10.0.0.7/x", WEBHOOK_PUBLIC_HOST],
      ["https://169.254.169.254/latest/meta-data", WEBHOOK_PUBLIC_HOST],
      ["https://2130706433/x", WEBHOOK_PUBLIC_HOST],
      ["https://[::1]/x", WEBHOOK_PUBLIC_HOST],
      ["https://localhost/x", WEBHOOK_PUBLIC_HOST],
      ["https://api.localhost/x", WEBHOOK_PUBLIC_HOST],
      ["https://printer.local/x", WEBHOOK_PUBLIC_HOST],
      ["https://db.internal/x", WEBHOOK_PUBLIC_HOST],
      ["https://intranet/x", WEBHOOK_PUBLIC_HOST],
      ["https://app.dynamic-content.test/api/mappings", WEBHOOK_NOT_OURS],
    ];
    for (const [url, error] of refusals) {
      expect(await errorOf(await create(apiKey, { url }, production)), url).toEqual({ status: 400, error });
    }
    const dns = standInDns();
    dns.addresses.set("hooks.shop.test", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]);
    expect((await create(apiKey, { url: "https://hooks.shop.test/x" }, production)).status).toBe(201);
    expect(dns.resolved).toEqual(["hooks.shop.test", "hooks.shop.test"]);

    const development = testEnv({ ENVIRONMENT: "development" });
    expect((await create(apiKey, { url: "http://127.0.0.1:8787/hook" }, development)).status).toBe(201);
    expect((await create(apiKey, { url: "http://localhost:9000/hook" }, development)).status).toBe(201);
    expect(await errorOf(await create(apiKey, { url: "http://10.0.0.7/x" }, development))).toEqual({
      status: 400,
      error: WEBHOOK_PUBLIC_HOST,
    });
  });

  it("in production refuses a name that resolves to a private, loopback or reserved address, on save (P-11)", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const production = testEnv({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "https://app.dynamic-content.test" });
    const dns = standInDns();
    const answers: [string, string[]][] = [
      ["loopback.hooks.test", ["127.0.0.1"]],
      ["mixed.hooks.test", ["93.184.216.34", "10.0.0.7"]],
      ["metadata.hooks.test", ["169.254.169.254"]],
      ["cgnat.hooks.test", ["100.64.0.1"]],
      ["v6-loopback.hooks.test", ["::1"]],
      ["v6-private.hooks.test", ["fd12:3456::1"]],
      ["mapped.hooks.test", ["::ffff:127.0.0.1"]],
    ];
    for (const [name, addresses] of answers) {
      dns.addresses.set(name, addresses);
      const res = await create(apiKey, { url: `https://${name}/x` }, production);
      expect(await errorOf(res), name).toEqual({ status: 400, error: WEBHOOK_PRIVATE_ADDRESS });
    }
    dns.down = true;
    expect(await errorOf(await create(apiKey, { url: "https://down.hooks.test/x" }, production))).toEqual({
      status: 503,
      error: WEBHOOK_UNRESOLVED,
    });
    expect(await (await call("/api/webhooks", { apiKey })).json()).toEqual([]);

    // In development a name may resolve to loopback (local servers), never to another private address.
    const development = testEnv({ ENVIRONMENT: "development" });
    dns.down = false;
    expect((await create(apiKey, { url: "https://loopback.hooks.test/x" }, development)).status).toBe(201);
    expect(await errorOf(await create(apiKey, { url: "https://mixed.hooks.test/x" }, development))).toEqual({
      status: 400,
      error: WEBHOOK_PRIVATE_ADDRESS,
    });
  });

  it("allows at most 10 webhooks per customer", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => create(apiKey, { url: `https://hooks.shop.test/${i}` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(await Promise.all(refused.map(errorOf))).toEqual([
      { status: 400, error: TOO_MANY_WEBHOOKS },
      { status: 400, error: TOO_MANY_WEBHOOKS },
    ]);
    expect(TOO_MANY_WEBHOOKS).toBe("An account can have at most 10 webhooks");
    const list = await call("/api/webhooks", { apiKey });
    expect(list.headers.get("X-Total-Count")).toBe("10");
    expect(await list.json()).toHaveLength(10);
    // Another customer has their own ten.
    const other = await createVerifiedCustomer("other@example.com");
    expect((await create(other.apiKey, { url: RECEIVER_URL })).status).toBe(201);
  });

  it("answers 404 for another customer's webhook and leaves it as it was", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const hook = await addWebhook(owner.apiKey);
    const stranger = await createVerifiedCustomer("stranger@example.com");
    for (const [method, path] of [
      ["DELETE", `/api/webhooks/${hook.id}`],
      ["GET", `/api/webhooks/${hook.id}/deliveries`],
      ["POST", `/api/webhooks/${hook.id}/test`],
      ["DELETE", "/api/webhooks/wh_AAAAAAAAAAAAAAAAAAAAAA"],
      ["GET", "/api/webhooks/' OR 1=1 --/deliveries"],
    ] as const) {
      const res = await call(path, { method, apiKey: stranger.apiKey });
      expect(await errorOf(res), `${method} ${path}`).toEqual({ status: 404, error: "Webhook not found" });
    }
    expect(received).toHaveLength(0);
    expect(await (await call("/api/webhooks", { apiKey: owner.apiKey })).json()).toEqual([
      expect.objectContaining({ id: hook.id }),
    ]);
    expect(await (await call("/api/webhooks", { apiKey: stranger.apiKey })).json()).toEqual([]);
  });

  it("sends a signed ping on test and answers its delivery", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const hook = await addWebhook(apiKey);
    const res = await call(`/api/webhooks/${hook.id}/test`, { method: "POST", apiKey });
    expect(res.status).toBe(201);
    const delivery = (await res.json()) as WebhookDelivery;
    expect(delivery).toMatchObject({
      event: "ping",
      status: "delivered",
      attempts: 1,
      responseStatus: 204,
      error: null,
      nextAttemptAt: null,
      payload: { id: delivery.eventId, type: "ping", data: { webhook: { id: hook.id, url: hook.url } } },
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.get("X-DC-Event")).toBe("ping");
    expect(received[0]!.headers.get("X-DC-Delivery")).toBe(String(delivery.id));
    expect(JSON.parse(received[0]!.body)).toEqual(delivery.payload);
    expect(
      await verifySignature(hook.secret, received[0]!.headers.get("X-DC-Signature")!, received[0]!.body, new Date()),
    ).toBe(true);
  });

  it("sends at most 20 test events per account an hour, then refuses with 429 and calls nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = await addWebhook(apiKey);
    for (let i = 0; i < 20; i++) {
      expect((await call(`/api/webhooks/${id}/test`, { method: "POST", apiKey })).status).toBe(201);
    }
    const refused = await call(`/api/webhooks/${id}/test`, { method: "POST", apiKey });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Too many test deliveries. Please try again in an hour." });
    expect(received).toHaveLength(20);
  });

  it("lists a webhook's deliveries newest first, a page at a time", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const hook = await addWebhook(apiKey);
    for (let i = 0; i < 3; i++) {
      await call("/api/mappings", {
        method: "POST",
        apiKey,
        json: { url: `https://shop.test/${i}`, htmlContent: "x" },
      });
    }
    const all = await call(`/api/webhooks/${hook.id}/deliveries`, { apiKey });
    expect(all.headers.get("X-Total-Count")).toBe("3");
    const rows = (await all.json()) as WebhookDelivery[];
    expect(rows.map((r) => r.payload.data.mapping!.url)).toEqual([
      "https://shop.test/2",
      "https://shop.test/1",
      "https://shop.test/0",
    ]);
    expect(rows[0]).toMatchObject({
      event: "mapping.published",
      status: "delivered",
      attempts: 1,
      responseStatus: 204,
    });

    const page = await call(`/api/webhooks/${hook.id}/deliveries?limit=1&offset=1`, { apiKey });
    expect(page.headers.get("X-Total-Count")).toBe("3");
    expect(((await page.json()) as WebhookDelivery[]).map((r) => r.id)).toEqual([rows[1]!.id]);
    expect(await errorOf(await call(`/api/webhooks/${hook.id}/deliveries?limit=101`, { apiKey }))).toEqual({
      status: 400,
      error: "limit must be at most 100",
    });
  });

  it("is described in the OpenAPI document, every route of it", async () => {
    const doc = (await (await call("/api/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    const described = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith("/api/webhooks"))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    const routes = appRoutes()
      .filter((route) => route.includes(" /api/webhooks"))
      .map((route) => route.replace(/:([a-zA-Z]+)/g, "{$1}"));
    expect(described.sort()).toEqual(routes.sort());
    expect(routes).toHaveLength(5);
  });
});
