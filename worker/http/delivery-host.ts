/**
 * @module On its own host (DELIVERY_ORIGIN), the Worker answers delivery and nothing else: no dashboard, no API and
 * no cookie ever lives on the origin that customers' pages talk to.
 */
import { createMiddleware } from "hono/factory";
import { isDeliveryPath } from "#contract/delivery-paths";
import type { AppEnv } from "../env";
import { canonicalHost, separateDeliveryHost } from "./origin";

export const deliveryHostOnly = createMiddleware<AppEnv>(async (c, next) => {
  const host = separateDeliveryHost(c.env);
  if (host && canonicalHost(new URL(c.req.url)) === host && !isDeliveryPath(c.req.path)) {
    return c.text("Not found: this host serves only the snippet and its content", 404);
  }
  await next();
});
