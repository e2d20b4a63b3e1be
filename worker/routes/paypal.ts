/**
 * @module PayPal: the client configuration for the plan dialog, the IPN listener, and storing a subscription
 * after the buyer approved it (confirmed with PayPal's REST API when credentials are configured).
 */
import { addMonths } from "date-fns";
import { Hono } from "hono";
import { requireAccountHolder, requireUser } from "../auth/middleware";
import { startBillingPeriod } from "../billing/periods";
import type { MessageResponse, PayPalClientConfig } from "../contract/responses";
import { storeSubscriptionBody } from "../contract/schemas";
import { createDb } from "../db/client";
import { writeDocument } from "../delivery/document";
import type { AppEnv } from "../env";
import { ApiError, badRequest, conflict } from "../http/errors";
import { validate } from "../http/validate";
import { findProductVersionByPlanId } from "../models/product-versions";
import { storeSubscription } from "../models/subscriptions";
import { paypalConfig } from "../paypal/config";
import { handleIpn } from "../paypal/ipn";
import { fetchSubscription, PayPalUnavailableError } from "../paypal/subscriptions-api";

const CONFIRMED_STATUSES = new Set(["ACTIVE", "APPROVED"]);

export const paypalRoutes = new Hono<AppEnv>()
  .get("/paypal/config", (c) => {
    const { clientId, sdkUrl } = paypalConfig(c.env);
    return c.json<PayPalClientConfig>({ clientId, sdkUrl });
  })
  .post("/paypal/ipn", async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    // PayPal wants its 200 at once; the message is verified and applied after the answer.
    c.executionCtx.waitUntil(
      handleIpn(c.env, raw).catch((err) =>
        console.error("IPN handling failed", err instanceof Error ? err.message : err),
      ),
    );
    return c.body(null, 200);
  })
  .post(
    "/store-subscription",
    requireUser,
    requireAccountHolder,
    validate("json", storeSubscriptionBody),
    async (c) => {
      const user = c.var.user;
      const { subscriptionId, status } = c.req.valid("json");
      const db = createDb(c.env.DB);
      const config = paypalConfig(c.env);

      if (!config.clientId || !config.clientSecret) {
        const stored = await storeSubscription(db, {
          userId: user.id,
          subscriptionId,
          planId: null,
          status: (status || "active").toLowerCase(),
        });
        if (stored.userId !== user.id) throw conflict("This subscription belongs to another account");
        return c.json<MessageResponse>({
          message: "Subscription stored. PayPal is not configured, so no plan was assigned.",
        });
      }

      let confirmed;
      try {
        confirmed = await fetchSubscription(c.env, subscriptionId);
      } catch (err) {
        if (err instanceof PayPalUnavailableError) {
          console.error(err.message);
          throw new ApiError(502, "PayPal could not be reached. Please try again.");
        }
        throw err;
      }
      if (!confirmed || !CONFIRMED_STATUSES.has(confirmed.status) || confirmed.customId !== user.id) {
        throw badRequest("PayPal did not confirm this subscription");
      }
      const version = confirmed.planId ? await findProductVersionByPlanId(db, confirmed.planId) : undefined;
      if (!version) throw badRequest("No plan matches this subscription");

      const stored = await storeSubscription(db, {
        userId: user.id,
        subscriptionId,
        planId: confirmed.planId,
        status: "active",
      });
      if (stored.userId !== user.id) throw conflict("This subscription belongs to another account");
      if (user.productVersionId !== version.id) {
        const start = new Date();
        await startBillingPeriod(db, user.id, { start, end: addMonths(start, 1) }, version.id);
        await writeDocument(c.env, user.id);
      }
      return c.json<MessageResponse>({ message: `Subscribed to ${version.name}` });
    },
  );
