/**
 * @module The customer's own account: `/api/user/stats`, `/api/user/dashboard`, `/api/user/payment-history`,
 * `POST /api/user/api-key/rotate` and `POST /api/user/subscription/cancel`.
 */
import { Hono, type Context } from "hono";
import type { ApiKeyResponse, CustomerDashboard, MessageResponse, Stats } from "#contract/responses";
import { maskApiKey } from "#contract/api-key-mask";
import { snippetText } from "#contract/snippet-text";
import { requireAccountHolder, requireUser } from "../auth/middleware";
import { plainListQuery } from "#contract/schemas";
import { cancelOwnSubscription } from "../billing/cancel-subscription";
import { currentBilling } from "../billing/current-billing";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import { deliveryOrigin } from "../http/origin";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { secretKeys } from "../lib/crypto";
import { ensureCustomerKey, getCustomerKey, rotateOwnKey } from "../models/api-keys";
import { customerLimits } from "../models/limits";
import { paymentHistory } from "../models/payments";
import { getProductVersion } from "../models/product-versions";
import { currentSubscription } from "../models/subscriptions";
import { usageOf, userStats } from "../models/usage";
import { heldFor } from "../analytics/settled-counts";

/**
 * The key the dashboard shows: a customer's own (issued if they have none since a revocation); while an admin
 * acts as them, the customer's key masked if they have one (an hour's audited impersonation must not yield the
 * permanent key); for an admin, the key of this sign-in.
 */
async function dashboardKey(c: Context<AppEnv>, db: Db): Promise<string> {
  const { user, session } = c.var;
  if (user.role === "admin") return session.apiKey;
  if (session.impersonator) {
    const key = await getCustomerKey(db, secretKeys(c.env), user.id);
    return key ? maskApiKey(key) : "";
  }
  return ensureCustomerKey(db, secretKeys(c.env), user.id);
}

export const userRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/api-key/rotate", requireAccountHolder, async (c) => {
    const apiKey = await rotateOwnKey(c.var.db, secretKeys(c.env), c.var.user);
    return c.json<ApiKeyResponse>({ apiKey });
  })
  // Money is the holder's to move: an admin acting as the customer cannot cancel (or subscribe) for them.
  .post("/subscription/cancel", requireAccountHolder, async (c) =>
    c.json<MessageResponse>(await cancelOwnSubscription(c.env, c.var.db, c.var.user.id)),
  )
  .use(currentBilling)
  .get("/payment-history", validate("query", plainListQuery), async (c) =>
    pageResponse(c, await paymentHistory(c.var.db, c.var.user.id, c.req.valid("query")), c.req.valid("query")),
  )
  .get("/stats", async (c) => c.json<Stats>(await userStats(c.var.db, c.var.user, await heldFor(c, c.var.user.id))))
  .get("/dashboard", async (c) => {
    const db = c.var.db;
    const user = c.var.user;
    const held = await heldFor(c, user.id);
    const [apiKey, version, usage, subscription] = await Promise.all([
      dashboardKey(c, db),
      user.productVersionId ? getProductVersion(db, user.productVersionId) : undefined,
      usageOf(db, user, held),
      currentSubscription(db, user.id),
    ]);
    return c.json<CustomerDashboard>({
      userId: user.id,
      email: user.email,
      apiKey,
      jsSnippet: snippetText(deliveryOrigin(c), user.id),
      productVersion: version
        ? {
            id: version.id,
            name: version.name,
            description: version.description,
            websitesLimit: version.websitesLimit,
            eventsLimit: version.eventsLimit,
            dynamicContentLimit: version.dynamicContentLimit,
          }
        : null,
      limits: customerLimits(user, version),
      billingPeriodStart: user.billingPeriodStart?.toISOString() ?? null,
      billingPeriodEnd: user.billingPeriodEnd?.toISOString() ?? null,
      usage,
      subscription: subscription
        ? {
            subscriptionId: subscription.subscription.subscriptionId,
            status: subscription.subscription.status,
            productVersionId: subscription.subscription.productVersionId,
            plan: subscription.plan,
            paidThrough: subscription.subscription.paidThrough?.toISOString() ?? null,
          }
        : null,
    });
  });
