/** @module Everything under `/api/admin` except the login: admins only, enforced here once. */
import { Hono } from "hono";
import { requireAdmin } from "../../auth/middleware";
import type { AppEnv } from "../../env";
import { adminAnalyticsRoutes } from "./analytics";
import { adminAuditEventRoutes } from "./audit-events";
import { adminBillingRoutes } from "./billing";
import { adminMappingRoutes } from "./mappings";
import { adminOverviewRoutes } from "./overview";
import { adminProductVersionRoutes } from "./product-versions";
import { adminUserRoutes } from "./users";

export const adminRoutes = new Hono<AppEnv>()
  .use(requireAdmin)
  .route("/overview", adminOverviewRoutes)
  .route("/users", adminUserRoutes)
  .route("/mappings", adminMappingRoutes)
  .route("/product-versions", adminProductVersionRoutes)
  .route("/billing", adminBillingRoutes)
  .route("/audit-events", adminAuditEventRoutes)
  .route("/analytics", adminAnalyticsRoutes);
