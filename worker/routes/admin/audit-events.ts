/** @module `GET /api/admin/audit-events`: what admins did to accounts (impersonations, key revocations). */
import { Hono } from "hono";
import { auditEventsQuery } from "#contract/schemas";
import type { AppEnv } from "../../env";
import { pageResponse } from "../../http/paging";
import { validate } from "../../http/validate";
import { listAuditEvents } from "../../models/audit-events";

export const adminAuditEventRoutes = new Hono<AppEnv>().get("/", validate("query", auditEventsQuery), async (c) => {
  const query = c.req.valid("query");
  return pageResponse(c, await listAuditEvents(c.var.db, query), query);
});
