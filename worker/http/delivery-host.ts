/**
 * @module On its own host (DELIVERY_ORIGIN), the Worker answers delivery and nothing else: no dashboard, no API and
 * no cookie ever lives on the origin that customers' pages talk to. Mounted after the delivery routes (app.ts), so a
 * request that reaches it is not one of theirs.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { canonicalHost, separateDeliveryHost } from "./origin";

export const deliveryHostOnly = createMiddleware<AppEnv>(async (c, next) => {
  const host = separateDeliveryHost(c.env);
  if (host && canonicalHost(new URL(c.req.url)) === host) {
    return c.text("Not found: this host serves only the snippet and its content", 404);
  }
  await next();
});
