/**
 * @module PayPal: the client configuration for the plan dialog, the IPN listener, and storing a subscription
 * after the buyer approved it (confirmed with PayPal's REST API, billing/confirm-subscription.ts).
 */
import { Hono } from "hono";
import { requireAccountHolder, requireUser } from "../auth/middleware";
import { storeConfirmedSubscription } from "../billing/confirm-subscription";
import type { MessageResponse, PayPalClientConfig } from "#contract/responses";
import { storeSubscriptionBody } from "#contract/schemas";
import type { AppEnv } from "../env";
import { bodyCap, IPN_BODY_MAX_BYTES } from "../http/body-limit";
import { conflict, errorResponse } from "../http/errors";
import { validate } from "../http/validate";
import { findSubscription, storeUnconfirmedSubscription } from "../models/subscriptions";
import { paypalConfig } from "../paypal/config";
import { handleIpn } from "../billing/ipn";

const OTHER_ACCOUNTS = "This subscription belongs to another account";

export const paypalRoutes = new Hono<AppEnv>()
  .get("/paypal/config", (c) => {
    const config = paypalConfig(c.env);
    // Subscribe buttons only where a subscription can be confirmed and, on a plan change, cancelled.
    return c.json<PayPalClientConfig>({
      clientId: config.hasRestCredentials ? config.clientId : null,
      sdkUrl: config.sdkUrl,
      currency: config.currency,
    });
  })
  .post("/paypal/ipn", bodyCap(IPN_BODY_MAX_BYTES), async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const answer = await handleIpn(c.env, raw);
    return answer.status === 200 ? c.body(null, 200) : errorResponse(c, answer.status, answer.error);
  })
  .post(
    "/store-subscription",
    requireUser,
    requireAccountHolder,
    validate("json", storeSubscriptionBody),
    async (c) => {
      const user = c.var.user;
      // The body's status is the browser's word: only PayPal's counts.
      const { subscriptionId } = c.req.valid("json");
      const db = c.var.db;
      const existing = await findSubscription(db, subscriptionId);
      if (existing && existing.userId !== user.id) throw conflict(OTHER_ACCOUNTS);

      if (!paypalConfig(c.env).hasRestCredentials) {
        const stored = await storeUnconfirmedSubscription(db, user.id, subscriptionId);
        if (stored.userId !== user.id) throw conflict(OTHER_ACCOUNTS);
        return c.json<MessageResponse>({
          message: "Subscription stored. PayPal is not configured, so no plan was assigned.",
        });
      }
      const answer = await storeConfirmedSubscription(c.env, db, user.id, subscriptionId, new Date());
      return c.json<MessageResponse>(answer);
    },
  );
