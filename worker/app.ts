/**
 * @module The Hono app: every route of the Worker, mounted per resource, with the security headers of every answer
 * and the one error handler.
 */
import { Hono } from "hono";
import { contentRoute } from "./delivery/content-route";
import { routeByHost } from "./delivery/host-routing";
import { CONTENT_PATH, SNIPPET_PATH } from "#contract/delivery-paths";
import type { AppEnv } from "./env";
import { requireAppSecret } from "./http/app-secret-check";
import { capRequestBody } from "./http/body-limit";
import { deliveryHostOnly } from "./http/delivery-host";
import { errorResponse, handleError } from "./http/errors";
import { securityHeaders } from "./http/security-headers";
import { adminRoutes } from "./routes/admin";
import { analyticsRoutes } from "./routes/analytics";
import { authRoutes } from "./routes/auth";
import { loginRoutes } from "./routes/login";
import { mappingRoutes } from "./routes/mappings";
import { paypalRoutes } from "./routes/paypal";
import { productVersionRoutes } from "./routes/product-versions";
import { registerRoutes } from "./routes/register";
import { siteConfigRoutes } from "./routes/site-config";
import { smtpConfigRoutes } from "./routes/smtp-config";
import { openApiRoutes } from "./routes/openapi";
import { servePage } from "./routes/pages";
import { urlRulesRoutes } from "./routes/url-rules";
import { userRoutes } from "./routes/user";
import { websiteRoutes } from "./routes/websites";
import { webhookRoutes } from "./routes/webhooks";
import { snippetRoute } from "./snippet/snippet-route";
import { sendWebhooksAfterChange } from "./webhooks/after-change";

export const app = new Hono<AppEnv>()
  // Whose host: the product's own goes on; a customer's proven edge website is proxied before anything of the
  // product's own touches the request; any other host gets 421 and nothing of ours.
  .use(routeByHost)
  .use(securityHeaders)
  .use(deliveryHostOnly)
  .use("/api/*", capRequestBody)
  .use("/api/*", requireAppSecret)
  .route(SNIPPET_PATH, snippetRoute)
  .route(CONTENT_PATH, contentRoute)
  .route("/api", registerRoutes)
  .route("/api", authRoutes)
  .route("/api/admin", adminRoutes)
  .route("/api/login", loginRoutes)
  .route("/api/smtp-config", smtpConfigRoutes)
  .use("/api/mappings/*", sendWebhooksAfterChange)
  .route("/api/mappings", mappingRoutes)
  .route("/api/user", userRoutes)
  .route("/api/analytics", analyticsRoutes)
  .route("/api/product-versions", productVersionRoutes)
  .route("/api", paypalRoutes)
  .route("/api/site-config", siteConfigRoutes)
  .route("/api/websites", websiteRoutes)
  .route("/api/url-rules", urlRulesRoutes)
  .route("/api/webhooks", webhookRoutes)
  .route("/api/openapi.json", openApiRoutes)
  .all("/api/*", (c) => errorResponse(c, 404, "Not found"))
  // The SPA's pages and build files come through here, so that they get their security headers on our hosts only.
  .on(["GET", "HEAD"], "*", servePage)
  .onError(handleError);
