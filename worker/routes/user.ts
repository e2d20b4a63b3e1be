/** @module The customer's own numbers: `/api/user/stats`, `/api/user/dashboard` and `/api/user/payment-history`. */
import { Hono } from "hono";
import type { CustomerDashboard, PaymentHistoryItem, Stats } from "../contract/responses";
import { snippetText } from "../contract/snippet-text";
import { requireUser } from "../auth/middleware";
import { currentBilling } from "../billing/current-billing";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { publicOrigin } from "../http/origin";
import { ensureApiKey } from "../models/api-keys";
import { paymentHistory } from "../models/payments";
import { getProductVersion } from "../models/product-versions";
import { usageOf, userStats } from "../models/usage";

export const userRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(currentBilling)
  .get("/payment-history", async (c) =>
    c.json<PaymentHistoryItem[]>(await paymentHistory(createDb(c.env.DB), c.var.user.id)),
  )
  .get("/stats", async (c) => c.json<Stats>(await userStats(createDb(c.env.DB), c.var.user)))
  .get("/dashboard", async (c) => {
    const db = createDb(c.env.DB);
    const user = c.var.user;
    const [apiKey, version, usage] = await Promise.all([
      ensureApiKey(db, c.env.APP_SECRET, user.id),
      user.productVersionId ? getProductVersion(db, user.productVersionId) : undefined,
      usageOf(db, user).then((u) => u.usage),
    ]);
    return c.json<CustomerDashboard>({
      userId: user.id,
      email: user.email,
      apiKey,
      jsSnippet: snippetText(publicOrigin(c), user.id),
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
      billingPeriodStart: user.billingPeriodStart?.toISOString() ?? null,
      billingPeriodEnd: user.billingPeriodEnd?.toISOString() ?? null,
      usage,
    });
  });
