/**
 * @module A customer's webhooks (docs/webhooks.md): register a URL (its signing secret is answered once), list and
 * delete them, read one's delivery log, and send it a `ping`. Another customer's webhook answers 404.
 */
import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../auth/middleware";
import { throttle } from "../auth/throttle";
import type { MessageResponse } from "#contract/responses";
import {
  deliveriesQuery,
  TOO_MANY_WEBHOOKS,
  webhookBody,
  webhooksQuery,
  type CreatedWebhook,
  type WebhookDelivery,
} from "#contract/webhooks";
import type { AppEnv } from "../env";
import { badRequest, notFound } from "../http/errors";
import { targetRefusal } from "../http/outbound-target";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { secretKeys } from "../lib/crypto";
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  getOwnWebhook,
  insertPing,
  listDeliveries,
  listWebhooks,
} from "../models/webhooks";
import { LEASE_MS, sendClaimed } from "../webhooks/dispatch";
import { WEBHOOK_PROBLEMS, webhookUrlProblem } from "../webhooks/target";

const WEBHOOK_NOT_FOUND = "Webhook not found";
/** Any text: ids are random, and one that is not a webhook id finds nothing (404), like another customer's. */
const idParam = z.object({ id: z.string() });

export const webhookRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", validate("query", webhooksQuery), async (c) =>
    pageResponse(c, await listWebhooks(c.var.db, c.var.user.id, c.req.valid("query")), c.req.valid("query")),
  )
  .post("/", validate("json", webhookBody), async (c) => {
    const { url } = c.req.valid("json");
    const problem = await webhookUrlProblem(c.env, url);
    if (problem) throw targetRefusal(problem, WEBHOOK_PROBLEMS);
    const created = await createWebhook(c.var.db, secretKeys(c.env), c.var.user.id, url);
    if (!created) throw badRequest(TOO_MANY_WEBHOOKS);
    return c.json<CreatedWebhook>(created, 201);
  })
  .delete("/:id", validate("param", idParam), async (c) => {
    if (!(await deleteWebhook(c.var.db, c.var.user.id, c.req.valid("param").id))) {
      throw notFound(WEBHOOK_NOT_FOUND);
    }
    return c.json<MessageResponse>({ message: "Webhook deleted successfully" });
  })
  .get("/:id/deliveries", validate("param", idParam), validate("query", deliveriesQuery), async (c) => {
    const db = c.var.db;
    const webhook = await getOwnWebhook(db, c.var.user.id, c.req.valid("param").id);
    if (!webhook) throw notFound(WEBHOOK_NOT_FOUND);
    return pageResponse(c, await listDeliveries(db, webhook.id, c.req.valid("query")), c.req.valid("query"));
  })
  // Sends a `ping` at once and answers its delivery as the attempt left it (retried like any event if it failed).
  .post("/:id/test", validate("param", idParam), async (c) => {
    const db = c.var.db;
    const webhook = await getOwnWebhook(db, c.var.user.id, c.req.valid("param").id);
    if (!webhook) throw notFound(WEBHOOK_NOT_FOUND);
    // Each test makes the Worker call the customer's URL at once: not a request generator against third parties.
    await throttle(c, "webhook-test", c.var.user.id);
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const ping = await insertPing(db, webhook, now, leaseUntil);
    await sendClaimed(c.env, db, [ping], now, leaseUntil);
    const delivery = await getDelivery(db, ping.id);
    // The webhook was deleted while its ping was sent.
    if (!delivery) throw notFound(WEBHOOK_NOT_FOUND);
    return c.json<WebhookDelivery>(delivery, 201);
  });
