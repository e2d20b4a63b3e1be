/** @module `GET /api/admin/audit-events`: what admins did to accounts (impersonations, key revocations). */
import { Hono } from "hono";
import type { AuditEvent } from "#contract/responses";
import { auditEventsQuery } from "#contract/schemas";
import { createDb } from "../../db/client";
import type { AppEnv } from "../../env";
import { validate } from "../../http/validate";
import { listAuditEvents } from "../../models/audit-events";

export const adminAuditEventRoutes = new Hono<AppEnv>().get("/", validate("query", auditEventsQuery), async (c) => {
  const { events, total } = await listAuditEvents(createDb(c.env.DB), c.req.valid("query"));
  return c.json<AuditEvent[]>(events, 200, { "X-Total-Count": String(total) });
});
