/**
 * @module The Hono app, in three faces, each with its own headers and middleware on its own routes:
 * - delivery: a customer's proven edge website (proxied before anything else) and `/api/content`, read by customers'
 *   pages from any origin; no secret check, no body cap, no database handle (`/snippet.js`, the other thing
 *   customers' pages load, never reaches the Worker: it is a static asset, wrangler.toml `run_worker_first`);
 * - the API (`/api/*`): API headers, the request's database handle (`c.var.db`), the default body cap (a route
 *   may declare its own), and the secret check for every route but the SPA's public configuration;
 * - the SPA's pages and build files, with the page headers.
 * Order is the whole mechanism: a face's middleware is registered after the faces before it, so a request a face
 * has answered never meets the next one's. Any host but ours and proven edge websites gets 421 (routeByHost); on
 * the delivery host only delivery answers.
 */
import { Hono } from "hono";
import { CONTENT_PATH, GOALS_PATH } from "#contract/delivery-paths";
import { followDeliveryChanges } from "./delivery/change-feed";
import { contentRoute } from "./delivery/content-route";
import { goalRoute } from "./delivery/goal-route";
import { routeByHost } from "./delivery/host-routing";
import type { AppEnv } from "./env";
import { requireAppSecret } from "./http/app-secret-check";
import { capRequestBody } from "./http/body-limit";
import { withDatabase } from "./http/database";
import { deliveryHostOnly } from "./http/delivery-host";
import { errorResponse, handleError } from "./http/errors";
import { apiHeaders, deliveryHeaders, pageHeaders, strictTransportSecurity } from "./http/security-headers";
import { adminRoutes } from "./routes/admin";
import { analyticsRoutes } from "./routes/analytics";
import { authRoutes } from "./routes/auth";
import { installCheckRoutes } from "./routes/install-check";
import { pickFrameRoute, pickOnPageRoutes } from "./routes/pick-on-page";
import { PICK_FRAME_PATH } from "./websites/pick-frame";
import { loginRoutes } from "./routes/login";
import { mappingRoutes } from "./routes/mappings";
import { onboardingRoutes } from "./routes/onboarding";
import { openApiRoutes } from "./routes/openapi";
import { servePage } from "./routes/pages";
import { paypalRoutes } from "./routes/paypal";
import { productVersionRoutes } from "./routes/product-versions";
import { registerRoutes } from "./routes/register";
import { siteConfigRoutes } from "./routes/site-config";
import { smtpConfigRoutes } from "./routes/smtp-config";
import { urlRulesRoutes } from "./routes/url-rules";
import { userRoutes } from "./routes/user";
import { webhookRoutes } from "./routes/webhooks";
import { websiteRoutes } from "./routes/websites";

export const app = new Hono<AppEnv>()
  .use(routeByHost)
  .use(strictTransportSecurity)
  // Delivery.
  .use(CONTENT_PATH, deliveryHeaders, followDeliveryChanges)
  .use(`${CONTENT_PATH}/*`, deliveryHeaders, followDeliveryChanges)
  .route(CONTENT_PATH, contentRoute)
  .use(GOALS_PATH, deliveryHeaders, followDeliveryChanges)
  .route(GOALS_PATH, goalRoute)
  // The pick-on-page frame: served on the delivery origin, never the dashboard's.
  .route(PICK_FRAME_PATH, pickFrameRoute)
  // Nothing past this point on the delivery host.
  .use(deliveryHostOnly)
  // The API.
  .use("/api/*", apiHeaders, withDatabase, capRequestBody)
  .route("/api/site-config", siteConfigRoutes)
  .use("/api/*", requireAppSecret)
  .route("/api", registerRoutes)
  .route("/api", authRoutes)
  .route("/api/admin", adminRoutes)
  .route("/api/login", loginRoutes)
  .route("/api/smtp-config", smtpConfigRoutes)
  .route("/api/mappings", mappingRoutes)
  .route("/api/user", userRoutes)
  .route("/api/analytics", analyticsRoutes)
  .route("/api/product-versions", productVersionRoutes)
  .route("/api", paypalRoutes)
  .route("/api/websites", websiteRoutes)
  .route("/api/url-rules", urlRulesRoutes)
  .route("/api/webhooks", webhookRoutes)
  .route("/api/onboarding", onboardingRoutes)
  .route("/api/install-check", installCheckRoutes)
  .route("/api/pick-on-page", pickOnPageRoutes)
  .route("/api/openapi.json", openApiRoutes)
  .all("/api/*", (c) => errorResponse(c, 404, "Not found"))
  // The SPA's pages and build files come through here, so that they get their headers on our hosts only.
  .use(pageHeaders)
  .on(["GET", "HEAD"], "*", servePage)
  .onError(handleError);
